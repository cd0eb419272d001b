import { eq, sql } from 'drizzle-orm'
import type { Clock } from '../clock'
import type { GatewayConfig } from '../config'
import type { GatewayDatabase } from '../db/database'
import { sessions, webhookDeliveries, webhookEvents, webhookSequences } from '../db/schema'
import { newDeliveryId, newEventId } from '../ids'
import { isMessageEvent, type WebhookEventData, type WebhookEventType } from '../schemas/webhook-events'

/** The database or a transaction on it: recordEvent runs inside the caller's transaction. */
export type DbOrTx = Pick<GatewayDatabase, 'select' | 'insert' | 'update' | 'delete'>

/** What the dispatcher offers writers: "something new is in the outbox". */
export interface WebhookNotifier {
  /** Something for `sessionId` entered the outbox (after the current transaction commits). */
  wake(sessionId?: string): void
}

export interface OutboxContext {
  clock: Clock
  config: Pick<GatewayConfig, 'webhooks'>
  webhooks?: WebhookNotifier
}

export interface NewEvent<T extends WebhookEventType> {
  sessionId: string
  type: T
  data: WebhookEventData<T>
  /** When it happened; now by default. */
  at?: Date
}

/**
 * Writes one event and its first delivery into the outbox. Call it INSIDE the transaction
 * that makes the change the event reports, so both commit or neither does: a crash right
 * after the commit still finds the event here. `message.*` events of a session with
 * `webhookMessages: false` are not written at all (the setting in force when the event
 * happened decides). Answers the event id, or null when nothing was written.
 */
export function recordEvent<T extends WebhookEventType>(tx: DbOrTx, ctx: OutboxContext, event: NewEvent<T>): string | null {
  if (isMessageEvent(event.type)) {
    const session = tx.select({ webhookMessages: sessions.webhookMessages }).from(sessions).where(eq(sessions.id, event.sessionId)).get()
    if (!session?.webhookMessages) return null
  }
  const now = ctx.clock.now()
  const at = event.at ?? now
  const sequence = tx
    .insert(webhookSequences)
    .values({ sessionId: event.sessionId, last: 1 })
    .onConflictDoUpdate({ target: webhookSequences.sessionId, set: { last: sql`${webhookSequences.last} + 1` } })
    .returning({ last: webhookSequences.last })
    .get().last
  const id = newEventId()
  const body = JSON.stringify({ type: event.type, eventId: id, timestamp: at.toISOString(), sessionId: event.sessionId, sequence, data: event.data })
  tx.insert(webhookEvents).values({ id, sessionId: event.sessionId, sequence, type: event.type, body, createdAt: at }).run()
  tx.insert(webhookDeliveries).values(newDelivery(ctx, id, event.sessionId, now)).run()
  ctx.webhooks?.wake(event.sessionId)
  return id
}

/** A fresh delivery series of an event: due now, retried until WEBHOOK_RETRY_HOURS from now. */
export function newDelivery(ctx: Pick<OutboxContext, 'config'>, eventId: string, sessionId: string, now: Date) {
  return {
    id: newDeliveryId(),
    eventId,
    sessionId,
    status: 'pending' as const,
    attempts: 0,
    nextAttemptAt: now,
    retryUntil: new Date(now.getTime() + ctx.config.webhooks.retryHours * 3_600_000),
    createdAt: now,
    updatedAt: now,
  }
}
