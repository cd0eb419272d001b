import { and, asc, eq, gt, sql } from 'drizzle-orm'
import type { GatewayDatabase } from '../db/database'
import { prepared, type StatementCache } from '../perf/prepared'
import { sessions, webhookDeliveries, webhookEvents, webhookPreviousSecrets, type WebhookDelivery } from '../db/schema'

/** Queries of the dispatcher: a session's next delivery, what it needs to send it, and the result. */

export interface Outgoing {
  url: string
  secrets: string[]
  eventId: string
  type: string
  body: string
}

const p = {
  sessionId: sql.placeholder('sessionId'),
  eventId: sql.placeholder('eventId'),
  now: sql.placeholder('now'),
}

// The dispatcher's hot queries, prepared once per gateway (perf/prepared.ts): building and
// preparing SQL on every delivery cost more than the delivery itself.
const head = (db: GatewayDatabase) =>
  db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, 'pending'), eq(webhookDeliveries.sessionId, p.sessionId)))
    .orderBy(asc(webhookDeliveries.position))
    .limit(1)
    .prepare()
const target = (db: GatewayDatabase) =>
  db
    .select({ url: sessions.webhookUrl, secret: sessions.webhookSecret })
    .from(sessions)
    .where(eq(sessions.id, p.sessionId))
    .prepare()
const event = (db: GatewayDatabase) => db.select().from(webhookEvents).where(eq(webhookEvents.id, p.eventId)).prepare()
const previousSecret = (db: GatewayDatabase) =>
  db
    .select({ secret: webhookPreviousSecrets.secret })
    .from(webhookPreviousSecrets)
    .where(and(eq(webhookPreviousSecrets.sessionId, p.sessionId), gt(webhookPreviousSecrets.expiresAt, p.now)))
    .prepare()
const delivered = (db: GatewayDatabase) =>
  db
    .update(webhookDeliveries)
    .set({
      status: 'delivered',
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      lastStatusCode: sql`${sql.placeholder('statusCode')}`,
      lastError: null,
      updatedAt: sql`${p.now}`,
    })
    .where(eq(webhookDeliveries.position, sql.placeholder('position')))
    .prepare()

/** The dispatcher's queries on one gateway's database, its statements from the gateway's cache. */
export function createQueue(ctx: { db: GatewayDatabase; statements: StatementCache }) {
  const { db } = ctx
  return {
    /** The delivery a session must get through next (its lowest pending position), if any. */
    headOf: (sessionId: string): WebhookDelivery | undefined => prepared(ctx, head).get({ sessionId }),

    /** The session's current URL and secrets (the replaced one too, for 24 h after a rotation) and the event. */
    outgoing(delivery: WebhookDelivery, now: Date): Outgoing | undefined {
      const session = prepared(ctx, target).get({ sessionId: delivery.sessionId })
      const row = prepared(ctx, event).get({ eventId: delivery.eventId })
      if (!session || !row) return undefined
      const previous = prepared(ctx, previousSecret).get({ sessionId: delivery.sessionId, now: now.getTime() })
      return {
        url: session.url,
        secrets: previous ? [session.secret, previous.secret] : [session.secret],
        eventId: row.id,
        type: row.type,
        body: row.body,
      }
    },

    markDelivered(delivery: WebhookDelivery, statusCode: number, now: Date): void {
      prepared(ctx, delivered).run({ statusCode, now: now.getTime(), position: delivery.position })
    },

    /** Answers the new status: `pending` again at `nextAttemptAt`, or `failed` once retries ran out. */
    markAttemptFailed(
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
    },
  }
}

export function sessionsWithPending(db: GatewayDatabase): string[] {
  return db
    .selectDistinct({ sessionId: webhookDeliveries.sessionId })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.status, 'pending'))
    .all()
    .map((row) => row.sessionId)
}
