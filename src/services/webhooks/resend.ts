import { and, asc, eq, gte } from 'drizzle-orm'
import { webhookDeliveries, webhookEvents } from '../../db/schema'
import { notFound } from '../../errors'
import type { ReplayInput } from '../../schemas/webhook'
import { newDelivery } from '../../webhooks/outbox'
import type { ServiceContext } from '../context'
import { findSession } from '../sessions/view'
import { deliveryView, findDelivery } from './deliveries'

/**
 * Sends a delivery again: due now, with a fresh retry window (WEBHOOK_RETRY_HOURS). A failed
 * or delivered one goes out once more under the same webhook-id; a pending one just stops waiting.
 */
export function retryDelivery(ctx: ServiceContext, { workspaceId, deliveryId }: { workspaceId: string; deliveryId: string }) {
  const found = findDelivery(ctx, workspaceId, deliveryId)
  if (!found) throw notFound(`Delivery "${deliveryId}"`)
  const now = ctx.clock.now()
  const fresh = newDelivery(ctx, found.delivery.eventId, found.delivery.sessionId, now)
  const delivery = ctx.db
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: now, retryUntil: fresh.retryUntil, updatedAt: now })
    .where(eq(webhookDeliveries.position, found.delivery.position))
    .returning()
    .get()
  ctx.webhooks?.wake(delivery.sessionId)
  ctx.logger.info({ sessionId: delivery.sessionId, deliveryId, previousStatus: found.delivery.status }, 'webhook delivery retried on request')
  return deliveryView({ ...found, delivery })
}

/**
 * Queues every event of a session since a time again (oldest first, same webhook-ids and
 * bodies), behind whatever the session still has pending. Events older than the retention
 * are gone and cannot be replayed.
 */
export function replayEvents(ctx: ServiceContext, { workspaceId, input }: { workspaceId: string; input: ReplayInput }) {
  const session = findSession(ctx, workspaceId, input.sessionId)
  const replayed = ctx.db.transaction(
    (tx) => {
      const events = tx
        .select({ id: webhookEvents.id })
        .from(webhookEvents)
        .where(and(eq(webhookEvents.sessionId, session.id), gte(webhookEvents.createdAt, new Date(input.since))))
        .orderBy(asc(webhookEvents.sequence))
        .all()
      const now = ctx.clock.now()
      for (const event of events) tx.insert(webhookDeliveries).values(newDelivery(ctx, event.id, session.id, now)).run()
      return events.length
    },
    { behavior: 'immediate' },
  )
  if (replayed > 0) ctx.webhooks?.wake(session.id)
  ctx.logger.info({ sessionId: session.id, since: input.since, replayed }, 'webhook events replayed on request')
  return { replayed }
}
