import { sql } from 'drizzle-orm'
import type { GatewayDatabase } from '../db/database'

const BATCH = 1_000

/**
 * Deletes delivered and failed deliveries last touched before `before`, then events older
 * than that with no delivery left, in batches so no single transaction holds the writer long.
 * Pending deliveries are never pruned: they end as delivered or failed within the retry window.
 */
export function pruneOutbox(db: GatewayDatabase, before: Date): { deliveries: number; events: number } {
  const cutoff = before.getTime()
  let deliveries = 0
  let events = 0
  for (;;) {
    const removed = db.all(sql`DELETE FROM webhook_deliveries WHERE position IN (
      SELECT position FROM webhook_deliveries WHERE status IN ('delivered', 'failed') AND updated_at < ${cutoff} LIMIT ${BATCH}) RETURNING 1`).length
    deliveries += removed
    if (removed < BATCH) break
  }
  for (;;) {
    const removed = db.all(sql`DELETE FROM webhook_events WHERE id IN (
      SELECT e.id FROM webhook_events e WHERE e.created_at < ${cutoff}
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id) LIMIT ${BATCH}) RETURNING 1`).length
    events += removed
    if (removed < BATCH) break
  }
  return { deliveries, events }
}
