import { and, asc, eq, gt } from 'drizzle-orm'
import type { GatewayDatabase } from '../db/database'
import { sessions, webhookDeliveries, webhookEvents, webhookPreviousSecrets, type WebhookDelivery } from '../db/schema'

/** Queries of the dispatcher: a session's next delivery, what it needs to send it, and the result. */

/** The delivery a session must get through next (its lowest pending position), if any. */
export function headOf(db: GatewayDatabase, sessionId: string): WebhookDelivery | undefined {
  return db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, 'pending'), eq(webhookDeliveries.sessionId, sessionId)))
    .orderBy(asc(webhookDeliveries.position))
    .limit(1)
    .get()
}

export function sessionsWithPending(db: GatewayDatabase): string[] {
  return db
    .selectDistinct({ sessionId: webhookDeliveries.sessionId })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.status, 'pending'))
    .all()
    .map((row) => row.sessionId)
}

export interface Outgoing {
  url: string
  secrets: string[]
  eventId: string
  type: string
  body: string
}

/** The session's current URL and secrets (the replaced one too, for 24 h after a rotation) and the event. */
export function outgoing(db: GatewayDatabase, delivery: WebhookDelivery, now: Date): Outgoing | undefined {
  const session = db
    .select({ url: sessions.webhookUrl, secret: sessions.webhookSecret })
    .from(sessions)
    .where(eq(sessions.id, delivery.sessionId))
    .get()
  const event = db.select().from(webhookEvents).where(eq(webhookEvents.id, delivery.eventId)).get()
  if (!session || !event) return undefined
  const previous = db
    .select({ secret: webhookPreviousSecrets.secret })
    .from(webhookPreviousSecrets)
    .where(and(eq(webhookPreviousSecrets.sessionId, delivery.sessionId), gt(webhookPreviousSecrets.expiresAt, now)))
    .get()
  return {
    url: session.url,
    secrets: previous ? [session.secret, previous.secret] : [session.secret],
    eventId: event.id,
    type: event.type,
    body: event.body,
  }
}

export function markDelivered(db: GatewayDatabase, delivery: WebhookDelivery, statusCode: number, now: Date): void {
  db.update(webhookDeliveries)
    .set({ status: 'delivered', attempts: delivery.attempts + 1, lastStatusCode: statusCode, lastError: null, updatedAt: now })
    .where(eq(webhookDeliveries.position, delivery.position))
    .run()
}

/** Answers the new status: `pending` again at `nextAttemptAt`, or `failed` once retries ran out. */
export function markAttemptFailed(
  db: GatewayDatabase,
  delivery: WebhookDelivery,
  result: { statusCode: number | null; error: string },
  nextAttemptAt: Date | null,
  now: Date,
): 'pending' | 'failed' {
  const status = nextAttemptAt ? 'pending' : 'failed'
  db.update(webhookDeliveries)
    .set({
      status,
      attempts: delivery.attempts + 1,
      lastStatusCode: result.statusCode,
      lastError: result.error.slice(0, 200),
      ...(nextAttemptAt ? { nextAttemptAt } : {}),
      updatedAt: now,
    })
    .where(eq(webhookDeliveries.position, delivery.position))
    .run()
  return status
}

/** Exponential backoff with jitter: base·2ⁿ⁻¹ capped at max, then a random point in its upper half. */
export function retryDelay(attempts: number, baseMs: number, maxMs: number, random = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempts - 1, 40))
  return Math.round(ceiling / 2 + random() * (ceiling / 2))
}
