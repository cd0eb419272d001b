import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import type { GatewayDatabase } from '../db/database'
import { fixedLimit, prepared, type StatementCache } from '../perf/prepared'
import {
  sessions,
  webhookDeliveries,
  webhookEvents,
  webhookPreviousSecrets,
  webhookSubscriptions,
  type WebhookDelivery,
  webhookUrlOf,
} from '../db/schema'
import type { DbOrTx } from './outbox'
import type { Stream } from './streams'

/** Queries of the dispatcher: a stream's next delivery, what it needs to send it, and the result. */

export interface Outgoing {
  /** `webhook`: a signed POST to `url`; another kind: that integration's sink (dispatcher.ts). */
  kind: 'webhook' | 'chatwoot'
  url: string
  secrets: string[]
  eventId: string
  type: string
  body: string
}

const p = {
  sessionId: sql.placeholder('sessionId'),
  webhookId: sql.placeholder('webhookId'),
  now: sql.placeholder('now'),
}
const pending = eq(webhookDeliveries.status, 'pending')
const ofSession = eq(webhookDeliveries.sessionId, p.sessionId)

// The dispatcher's hot queries, prepared once per gateway (perf/prepared.ts): building and
// preparing SQL on every delivery cost more than the delivery itself. A stream's head comes with
// its event and where it goes in one statement, not four (bench: webhooks from a full outbox).
// Two statements rather than `webhook_id IS ?`: each an exact prefix of the queue index.
const primaryHead = (db: GatewayDatabase) =>
  db
    .select({
      delivery: webhookDeliveries,
      type: webhookEvents.type,
      body: webhookEvents.body,
      url: sessions.webhookUrl,
      secret: sessions.webhookSecret,
      previousSecret: webhookPreviousSecrets.secret,
      previousSecretExpiresAt: webhookPreviousSecrets.expiresAt,
    })
    .from(webhookDeliveries)
    .leftJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .leftJoin(sessions, eq(sessions.id, webhookDeliveries.sessionId))
    .leftJoin(webhookPreviousSecrets, eq(webhookPreviousSecrets.sessionId, webhookDeliveries.sessionId))
    .where(and(pending, ofSession, isNull(webhookDeliveries.webhookId)))
    .orderBy(asc(webhookDeliveries.position))
    .limit(fixedLimit(1))
    .prepare()
const webhookHead = (db: GatewayDatabase) =>
  db
    .select({
      delivery: webhookDeliveries,
      type: webhookEvents.type,
      body: webhookEvents.body,
      kind: webhookSubscriptions.kind,
      url: webhookSubscriptions.url,
      secret: webhookSubscriptions.secret,
      previousSecret: webhookSubscriptions.previousSecret,
      previousSecretExpiresAt: webhookSubscriptions.previousSecretExpiresAt,
    })
    .from(webhookDeliveries)
    .leftJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .leftJoin(webhookSubscriptions, eq(webhookSubscriptions.id, webhookDeliveries.webhookId))
    .where(and(pending, ofSession, eq(webhookDeliveries.webhookId, p.webhookId)))
    .orderBy(asc(webhookDeliveries.position))
    .limit(fixedLimit(1))
    .prepare()
const streams = (db: GatewayDatabase) =>
  db
    .selectDistinct({ webhookId: webhookDeliveries.webhookId })
    .from(webhookDeliveries)
    .where(and(pending, ofSession))
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
    /**
     * The delivery a stream must get through next (its lowest pending position), if any, with
     * where it goes and what it carries (`send`): the webhook's current URL and secrets (the
     * replaced one too, for 24 h after a rotation) and the event. `send` is undefined once the
     * event, the session or the webhook is gone (their deliveries go with them), `no-webhook`
     * when it is for the session's own webhook and the session has none now.
     */
    headOf({ sessionId, webhookId }: Stream, now: Date): Head | undefined {
      if (webhookId === null) {
        const row = prepared(ctx, primaryHead).get({ sessionId })
        if (!row) return undefined
        const { delivery, type, body, url, secret } = row
        if (type === null || body === null || url === null || secret === null) return { delivery, send: undefined }
        const webhookUrl = webhookUrlOf(url)
        if (webhookUrl === null) return { delivery, send: 'no-webhook' }
        const previous = stillValid(row.previousSecret, row.previousSecretExpiresAt, now)
        return {
          delivery,
          send: {
            kind: 'webhook',
            url: webhookUrl,
            secrets: previous ? [secret, previous] : [secret],
            eventId: delivery.eventId,
            type,
            body,
          },
        }
      }
      const row = prepared(ctx, webhookHead).get({ sessionId, webhookId })
      if (!row) return undefined
      const { delivery, type, body, kind, url, secret } = row
      if (type === null || body === null || kind === null || url === null || secret === null)
        return { delivery, send: undefined }
      const previous = stillValid(row.previousSecret, row.previousSecretExpiresAt, now)
      return {
        delivery,
        send: { kind, url, secrets: previous ? [secret, previous] : [secret], eventId: delivery.eventId, type, body },
      }
    },

    /** The webhooks a session has pending deliveries for (null: its own webhookUrl). */
    streamsOf: (sessionId: string): (string | null)[] =>
      prepared(ctx, streams)
        .all({ sessionId })
        .map((row) => row.webhookId),

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
        // Still pending: a delivery ended meanwhile (its webhookUrl removed) stays ended.
        .where(and(eq(webhookDeliveries.position, delivery.position), pending))
        .run()
      return status
    },
  }
}

/** A stream's next delivery and what it needs to go out (`headOf`). */
export interface Head {
  delivery: WebhookDelivery
  send: Outgoing | 'no-webhook' | undefined
}

/** The secret a rotation replaced, while deliveries are still signed with it too. */
const stillValid = (secret: string | null, expiresAt: Date | null, now: Date): string | undefined =>
  secret !== null && expiresAt !== null && expiresAt > now ? secret : undefined

/** Every stream with a pending delivery. */
export function streamsWithPending(db: GatewayDatabase): Stream[] {
  return db
    .selectDistinct({ sessionId: webhookDeliveries.sessionId, webhookId: webhookDeliveries.webhookId })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.status, 'pending'))
    .all()
}

/** The last error of a delivery whose webhook the client removed while it waited. */
export const WEBHOOK_REMOVED = 'the session’s webhookUrl was removed'

/**
 * Ends a session's pending deliveries to its own webhook as failed, when it has none any more
 * (they stay in the log and can be replayed once it has one); answers how many.
 */
export function abandonPrimaryDeliveries(tx: DbOrTx, sessionId: string, now: Date): number {
  return tx
    .update(webhookDeliveries)
    .set({ status: 'failed', lastError: WEBHOOK_REMOVED, updatedAt: now })
    .where(
      and(
        eq(webhookDeliveries.sessionId, sessionId),
        isNull(webhookDeliveries.webhookId),
        eq(webhookDeliveries.status, 'pending'),
      ),
    )
    .returning({ position: webhookDeliveries.position })
    .all().length
}
