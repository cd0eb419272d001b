import { and, eq, gt, isNull, or, sql } from 'drizzle-orm'
import type { Clock } from '../clock'
import type { GatewayConfig } from '../config'
import type { GatewayDatabase } from '../db/database'
import { prepared, type StatementCache } from '../perf/prepared'
import { sessions, webhookDeliveries, webhookEvents, webhookSequences, webhookSubscriptions } from '../db/schema'
import { newDeliveryId, newEventId } from '../ids'
import type { WebhookEventData, WebhookEventType } from '../schemas/webhook-events'
import { eventWanted } from './event-filter'

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
  webhooks: WebhookNotifier
  /** The gateway's database and statement cache: the writes below run prepared. */
  db: GatewayDatabase
  statements: StatementCache
}

const ph = (name: string) => sql.placeholder(name)

// Every recorded event runs these: prepared once per gateway. They run on the caller's
// connection, so inside its transaction.
/**
 * The session's own filter and, one row each, its other webhooks and its workspace's (none: one
 * row with null webhook columns): a single query, so a session with no extra webhooks pays
 * nothing more than reading its filter.
 */
const selectTargets = (db: GatewayDatabase) =>
  db
    .select({
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
const bumpSequence = (db: GatewayDatabase) =>
  db
    .insert(webhookSequences)
    .values({ sessionId: ph('sessionId'), last: 1 })
    .onConflictDoUpdate({ target: webhookSequences.sessionId, set: { last: sql`${webhookSequences.last} + 1` } })
    .returning({ last: webhookSequences.last })
    .prepare()
const insertEvent = (db: GatewayDatabase) =>
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
const insertDelivery = (db: GatewayDatabase) =>
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
  /** Its delivery waits until then, unless releaseEvent lets it go sooner (eager media). */
  holdUntil?: Date
}

/**
 * Writes one event and its first delivery to each webhook that wants it into the outbox. Call
 * it INSIDE the transaction that makes the change the event reports, so all commit or none
 * does: a crash right after the commit still finds the event here. Each webhook has its own
 * filter (`eventWanted`: the session's `webhookMessages`/`webhookEvents` for its own webhookUrl,
 * each other webhook's `events`); an event no webhook wants is not written at all (the settings
 * in force when the event happened decide). Answers the event id, or null when nothing was
 * written. `_tx` is that transaction: every call site names it, and the prepared statements
 * below run on the same connection, hence inside it.
 */
export function recordEvent<T extends WebhookEventType>(
  _tx: DbOrTx,
  ctx: OutboxContext,
  event: NewEvent<T>,
): string | null {
  const sessionId = event.sessionId
  const targets = prepared(ctx, selectTargets).all({ sessionId })
  if (targets.length === 0) return null
  const primary = eventWanted(targets[0]!, event.type)
  const others: string[] = []
  for (const target of targets)
    if (
      target.webhookId &&
      eventWanted({ webhookMessages: target.messages!, webhookEvents: target.events }, event.type)
    )
      others.push(target.webhookId)
  if (!primary && others.length === 0) return null
  const now = ctx.clock.now()
  const at = event.at ?? now
  const sequence = prepared(ctx, bumpSequence).get({ sessionId })!.last
  const id = newEventId()
  const body = JSON.stringify({
    type: event.type,
    eventId: id,
    timestamp: at.toISOString(),
    sessionId,
    sequence,
    data: event.data,
  })
  prepared(ctx, insertEvent).run({ id, sessionId, sequence, type: event.type, body, createdAt: at })
  for (const webhookId of primary ? [null, ...others] : others) {
    const delivery = newDelivery(ctx, id, sessionId, now, webhookId)
    if (event.holdUntil) delivery.nextAttemptAt = event.holdUntil
    prepared(ctx, insertDelivery).run(delivery)
  }
  ctx.webhooks.wake(event.sessionId)
  return id
}

/**
 * A held event's first delivery may go now (a webhook receiver then sees it in its place in
 * the session's order; later events waited behind it). Nothing happens to an event already
 * attempted or released.
 */
export function releaseEvent(
  ctx: Pick<OutboxContext, 'clock' | 'webhooks'> & { db: GatewayDatabase },
  sessionId: string,
  eventId: string,
): void {
  const now = ctx.clock.now()
  ctx.db
    .update(webhookDeliveries)
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
  ctx.webhooks.wake(sessionId)
}

/**
 * A fresh delivery series of an event to one webhook (null: the session's webhookUrl): due now,
 * retried until WEBHOOK_RETRY_HOURS from now.
 */
export function newDelivery(
  ctx: Pick<OutboxContext, 'config'>,
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
