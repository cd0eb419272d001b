import { and, eq, gt, isNull, or, sql } from 'drizzle-orm'
import type { Clock } from '../clock'
import type { GatewayConfig } from '../config'
import type { GatewayDatabase } from '../db/database'
import { prepared, type StatementCache } from '../perf/prepared'
import {
  sessions,
  webhookDeliveries,
  webhookEvents,
  webhookSequences,
  webhookSubscriptions,
  webhookUrlOf,
} from '../db/schema'
import { newDeliveryId, newEventId } from '../ids'
import type { WebhookEventData, WebhookEventType } from '../schemas/webhook-events'
import { eventWanted } from './event-filter'

/** The database or a transaction on it: an outbox write runs on the transaction it is given. */
export type DbOrTx = Pick<GatewayDatabase, 'select' | 'insert' | 'update' | 'delete'>

/** What the dispatcher offers writers: "something new is in the outbox". */
export interface WebhookNotifier {
  /** Something for `sessionId` entered the outbox (after the current transaction commits). */
  wake(sessionId?: string): void
}

/** The webhook outbox of one gateway: where every event is written, in the transaction of its change. */
export interface Outbox extends WebhookNotifier {
  /**
   * Writes one event and its first delivery to each webhook that wants it, on `tx`. Call it
   * INSIDE the transaction that makes the change the event reports, so all commit or none does:
   * a crash right after the commit still finds the event here. Each webhook has its own filter
   * (`eventWanted`: the session's `webhookMessages`/`webhookEvents` for its own webhookUrl, each
   * other webhook's `events`); an event no webhook wants is not written at all (the settings in
   * force when the event happened decide). A session without a webhookUrl keeps its own filter:
   * what it wants is written, with no delivery to a URL it does not have. Answers the event id,
   * or null when nothing was written.
   */
  record<T extends WebhookEventType>(tx: DbOrTx, event: NewEvent<T>): string | null
  /**
   * A held event's first delivery may go now (a webhook receiver then sees it in its place in
   * the session's order; later events waited behind it). Nothing happens to an event already
   * attempted or released.
   */
  release(sessionId: string, eventId: string): void
}

export interface OutboxDeps {
  clock: Clock
  config: Pick<GatewayConfig, 'webhooks'>
  /** Woken after each write (the dispatcher). */
  notifier: WebhookNotifier
  /** The gateway's database and statement cache: the writes below run prepared. */
  db: GatewayDatabase
  statements: StatementCache
}

const ph = (name: string) => sql.placeholder(name)

// Every recorded event runs these: prepared once per connection (see perf/prepared.ts), run on
// the transaction given.
/**
 * The session's own filter and, one row each, its other webhooks and its workspace's (none: one
 * row with null webhook columns): a single query, so a session with no extra webhooks pays
 * nothing more than reading its filter.
 */
const selectTargets = (db: DbOrTx) =>
  db
    .select({
      webhookUrl: sessions.webhookUrl,
      webhookMessages: sessions.webhookMessages,
      webhookEvents: sessions.webhookEvents,
      webhookId: webhookSubscriptions.id,
      messages: webhookSubscriptions.messages,
      events: webhookSubscriptions.events,
    })
    .from(sessions)
    .leftJoin(
      webhookSubscriptions,
      and(
        eq(webhookSubscriptions.workspaceId, sessions.workspaceId),
        or(eq(webhookSubscriptions.sessionId, sessions.id), isNull(webhookSubscriptions.sessionId)),
      ),
    )
    .where(eq(sessions.id, ph('sessionId')))
    .prepare()
const bumpSequence = (db: DbOrTx) =>
  db
    .insert(webhookSequences)
    .values({ sessionId: ph('sessionId'), last: 1 })
    .onConflictDoUpdate({ target: webhookSequences.sessionId, set: { last: sql`${webhookSequences.last} + 1` } })
    .returning({ last: webhookSequences.last })
    .prepare()
const insertEvent = (db: DbOrTx) =>
  db
    .insert(webhookEvents)
    .values({
      id: ph('id'),
      sessionId: ph('sessionId'),
      sequence: ph('sequence'),
      type: ph('type'),
      body: ph('body'),
      createdAt: ph('createdAt'),
    })
    .prepare()
const insertDelivery = (db: DbOrTx) =>
  db
    .insert(webhookDeliveries)
    .values({
      id: ph('id'),
      eventId: ph('eventId'),
      sessionId: ph('sessionId'),
      webhookId: ph('webhookId'),
      status: ph('status'),
      attempts: ph('attempts'),
      nextAttemptAt: ph('nextAttemptAt'),
      retryUntil: ph('retryUntil'),
      createdAt: ph('createdAt'),
      updatedAt: ph('updatedAt'),
    })
    .prepare()

export interface NewEvent<T extends WebhookEventType> {
  sessionId: string
  type: T
  data: WebhookEventData<T>
  /** When it happened; now by default. */
  at?: Date
  /** Its delivery waits until then, unless Outbox.release lets it go sooner (eager media). */
  holdUntil?: Date
}

export function createOutbox({ clock, config, notifier, db, statements }: OutboxDeps): Outbox {
  return {
    record(tx, event) {
      const on = { db: tx, statements }
      const sessionId = event.sessionId
      const targets = prepared(on, selectTargets).all({ sessionId })
      if (targets.length === 0) return null
      // The session's own filter decides whether the event is written (for the stream, the log,
      // replay) even when it has no webhookUrl; it is delivered there only when it has one.
      const own = eventWanted(targets[0]!, event.type)
      const primary = own && webhookUrlOf(targets[0]!.webhookUrl) !== null
      const others: string[] = []
      for (const target of targets)
        if (
          target.webhookId &&
          eventWanted({ webhookMessages: target.messages!, webhookEvents: target.events }, event.type)
        )
          others.push(target.webhookId)
      if (!own && others.length === 0) return null
      const now = clock.now()
      const at = event.at ?? now
      const sequence = prepared(on, bumpSequence).get({ sessionId })!.last
      const id = newEventId()
      const body = JSON.stringify({
        type: event.type,
        eventId: id,
        timestamp: at.toISOString(),
        sessionId,
        sequence,
        data: event.data,
      })
      prepared(on, insertEvent).run({ id, sessionId, sequence, type: event.type, body, createdAt: at })
      for (const webhookId of primary ? [null, ...others] : others) {
        const delivery = newDelivery({ config }, id, sessionId, now, webhookId)
        if (event.holdUntil) delivery.nextAttemptAt = event.holdUntil
        prepared(on, insertDelivery).run(delivery)
      }
      notifier.wake(event.sessionId)
      return id
    },

    release(sessionId, eventId) {
      const now = clock.now()
      db.update(webhookDeliveries)
        .set({ nextAttemptAt: now })
        .where(
          and(
            eq(webhookDeliveries.eventId, eventId),
            eq(webhookDeliveries.status, 'pending'),
            eq(webhookDeliveries.attempts, 0),
            gt(webhookDeliveries.nextAttemptAt, now),
          ),
        )
        .run()
      notifier.wake(sessionId)
    },

    wake: (sessionId) => notifier.wake(sessionId),
  }
}

/**
 * A fresh delivery series of an event to one webhook (null: the session's webhookUrl): due now,
 * retried until WEBHOOK_RETRY_HOURS from now.
 */
export function newDelivery(
  ctx: Pick<OutboxDeps, 'config'>,
  eventId: string,
  sessionId: string,
  now: Date,
  webhookId: string | null = null,
) {
  return {
    id: newDeliveryId(),
    eventId,
    sessionId,
    webhookId,
    status: 'pending' as const,
    attempts: 0,
    nextAttemptAt: now,
    retryUntil: new Date(now.getTime() + ctx.config.webhooks.retryHours * 3_600_000),
    createdAt: now,
    updatedAt: now,
  }
}
