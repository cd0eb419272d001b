import { and, asc, eq, exists, gt, gte, inArray, isNull, like, not, or, type SQL, sql } from 'drizzle-orm'
import { type Session, webhookDeliveries, webhookEvents, webhookSubscriptions, webhookUrlOf } from '../../db/schema'
import { GatewayError, notFound } from '../../errors'
import type { ReplayInput } from '../../schemas/webhook'
import { newDelivery } from '../../webhooks/outbox'
import type { ServiceContext } from '../context'
import { findSession, sessionById } from '../sessions/view'
import { findDelivery, withWaits } from './deliveries'

/**
 * Sends a delivery again: due now, with a fresh retry window (WEBHOOK_RETRY_HOURS). A failed
 * or delivered one goes out once more under the same webhook-id; a pending one just stops waiting.
 */
export function retryDelivery(
  ctx: ServiceContext,
  { workspaceId, deliveryId, sessionId }: { workspaceId: string; deliveryId: string; sessionId?: string },
) {
  const found = findDelivery(ctx, workspaceId, deliveryId)
  if (!found || (sessionId !== undefined && found.delivery.sessionId !== sessionId))
    throw notFound(`Delivery "${deliveryId}"`)
  if (found.delivery.webhookId === null) assertHasWebhook(sessionById(ctx.db, found.delivery.sessionId))
  const now = ctx.clock.now()
  const fresh = newDelivery(ctx, found.delivery.eventId, found.delivery.sessionId, now)
  const delivery = ctx.db
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: now, retryUntil: fresh.retryUntil, updatedAt: now })
    .where(eq(webhookDeliveries.position, found.delivery.position))
    .returning()
    .get()
  ctx.outbox.wake(delivery.sessionId)
  ctx.logger.info(
    { sessionId: delivery.sessionId, deliveryId, previousStatus: found.delivery.status },
    'webhook delivery retried on request',
  )
  return withWaits(ctx, [{ ...found, delivery }])[0]!
}

/**
 * Queues a session's events since a time again to one of its webhooks (oldest first, same
 * webhook-ids and bodies), those that were written for it, behind whatever it still has pending: at most `limit` per call, then nextCursor (the
 * last queued sequence) says where the next call continues. Events older than the retention are
 * gone and cannot be replayed.
 */
export function replayEvents(ctx: ServiceContext, { workspaceId, input }: { workspaceId: string; input: ReplayInput }) {
  const session = findSession(ctx, workspaceId, input.sessionId)
  const webhookId = input.webhookId === undefined ? null : replayTarget(ctx, session, input.webhookId)
  if (webhookId === null) assertHasWebhook(session)
  const after = input.cursor === undefined ? undefined : Number(input.cursor)
  const { replayed, lastSequence, more } = ctx.db.transaction(
    (tx) => {
      const found = tx
        .select({ id: webhookEvents.id, sequence: webhookEvents.sequence })
        .from(webhookEvents)
        .where(
          and(
            eq(webhookEvents.sessionId, session.id),
            gte(webhookEvents.createdAt, new Date(input.since)),
            after === undefined ? undefined : gt(webhookEvents.sequence, after),
            // Written for this webhook: each filter kept its own events (and a delivery stays as long as its event).
            or(
              exists(
                tx
                  .select({ one: webhookDeliveries.position })
                  .from(webhookDeliveries)
                  .where(
                    and(
                      eq(webhookDeliveries.eventId, webhookEvents.id),
                      webhookId === null
                        ? isNull(webhookDeliveries.webhookId)
                        : eq(webhookDeliveries.webhookId, webhookId),
                    ),
                  ),
              ),
              // The session's own webhook also takes those written while it had no URL (no
              // delivery then), as far as its filter, as it is now, keeps them.
              webhookId === null ? keptByOwnFilter(session) : undefined,
            ),
          ),
        )
        .orderBy(asc(webhookEvents.sequence))
        .limit(input.limit + 1) // one more than queued: tells whether there is a next page
        .all()
      const events = found.slice(0, input.limit)
      const now = ctx.clock.now()
      for (const event of events)
        tx.insert(webhookDeliveries)
          .values({ ...newDelivery(ctx, event.id, session.id, now, webhookId), replay: true })
          .run()
      return { replayed: events.length, lastSequence: events.at(-1)?.sequence, more: found.length > input.limit }
    },
    { behavior: 'immediate' },
  )
  if (replayed > 0) ctx.outbox.wake(session.id)
  const nextCursor = more ? String(lastSequence) : null
  ctx.logger.info(
    { sessionId: session.id, webhookId, since: input.since, replayed, nextCursor },
    'webhook events replayed on request',
  )
  return { replayed, nextCursor }
}

/** A webhook the session's events go to: its own, or one of its workspace's. Anything else is 404. */
function replayTarget(ctx: ServiceContext, session: { id: string; workspaceId: string }, webhookId: string): string {
  const found = ctx.db
    .select({ id: webhookSubscriptions.id })
    .from(webhookSubscriptions)
    .where(
      and(
        eq(webhookSubscriptions.id, webhookId),
        eq(webhookSubscriptions.workspaceId, session.workspaceId),
        or(eq(webhookSubscriptions.sessionId, session.id), isNull(webhookSubscriptions.sessionId)),
      ),
    )
    .get()
  if (!found) throw notFound(`Webhook "${webhookId}"`)
  return found.id
}

/** A send to the session's own webhook needs one: 409 with the two ways forward. */
function assertHasWebhook(session: Session | undefined): void {
  if (!session || webhookUrlOf(session.webhookUrl) !== null) return
  throw new GatewayError(
    'session_state_conflict',
    `Session "${session.id}" has no webhookUrl to send to: set one with PUT /v1/session/update/${session.id}, or name a webhookId`,
    { status: session.status, webhookUrl: null },
  )
}

/** The event types the session's own filter keeps (`eventWanted`, as SQL on webhook_events.type). */
function keptByOwnFilter(session: Pick<Session, 'webhookMessages' | 'webhookEvents'>): SQL {
  const kept = and(
    session.webhookMessages ? undefined : not(like(webhookEvents.type, 'message.%')),
    session.webhookEvents === null ? undefined : inArray(webhookEvents.type, session.webhookEvents),
  )
  return kept ?? sql`1`
}
