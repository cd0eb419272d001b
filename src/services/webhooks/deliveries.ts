import { and, asc, desc, eq, isNull, lt, type SQL } from 'drizzle-orm'
import { sessions, webhookDeliveries, webhookEvents } from '../../db/schema'
import type { DeliveryView, ListDeliveriesInput } from '../../schemas/webhook'
import type { ServiceContext } from '../context'
import { findSession } from '../sessions/view'
import { validationError } from '../validation-error'

const columns = {
  delivery: webhookDeliveries,
  type: webhookEvents.type,
  sequence: webhookEvents.sequence,
}

type Row = { delivery: typeof webhookDeliveries.$inferSelect; type: string; sequence: number }

type Wait = DeliveryView['waitingFor']

function deliveryView({ delivery, type, sequence }: Row, waitingFor: Wait): DeliveryView {
  return {
    deliveryId: delivery.id,
    eventId: delivery.eventId,
    sessionId: delivery.sessionId,
    webhookId: delivery.webhookId,
    type,
    sequence,
    status: delivery.status,
    attempts: delivery.attempts,
    lastStatusCode: delivery.lastStatusCode,
    lastError: delivery.lastError,
    nextAttemptAt: delivery.status === 'pending' ? delivery.nextAttemptAt.toISOString() : null,
    waitingFor,
    replay: delivery.replay,
    createdAt: delivery.createdAt.toISOString(),
  }
}

/**
 * The views of deliveries, each pending one told which delivery it waits behind: a stream (a
 * session's events to one webhook) sends its lowest pending position first and nothing else until
 * that one is delivered or failed (webhooks/queue.ts `headOf`). One head query per stream on the page.
 */
export function withWaits(ctx: ServiceContext, rows: Row[]): DeliveryView[] {
  const heads = new Map<string, { position: number; deliveryId: string; sequence: number } | undefined>()
  const headOf = ({ sessionId, webhookId }: Row['delivery']) => {
    const stream = `${sessionId} ${webhookId ?? ''}`
    if (!heads.has(stream))
      heads.set(
        stream,
        ctx.db
          .select({
            position: webhookDeliveries.position,
            deliveryId: webhookDeliveries.id,
            sequence: webhookEvents.sequence,
          })
          .from(webhookDeliveries)
          .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
          .where(
            and(
              eq(webhookDeliveries.status, 'pending'),
              eq(webhookDeliveries.sessionId, sessionId),
              webhookId === null ? isNull(webhookDeliveries.webhookId) : eq(webhookDeliveries.webhookId, webhookId),
            ),
          )
          .orderBy(asc(webhookDeliveries.position))
          .limit(1)
          .get(),
      )
    return heads.get(stream)
  }
  return rows.map((row) => {
    const head = row.delivery.status === 'pending' ? headOf(row.delivery) : undefined
    const waits = head !== undefined && head.position < row.delivery.position
    return deliveryView(row, waits ? { deliveryId: head.deliveryId, sequence: head.sequence } : null)
  })
}

/** One delivery of the workspace's sessions, with its event's type; undefined for anything else. */
export function findDelivery(ctx: ServiceContext, workspaceId: string, deliveryId: string): Row | undefined {
  return ctx.db
    .select(columns)
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .innerJoin(sessions, eq(sessions.id, webhookDeliveries.sessionId))
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(sessions.workspaceId, workspaceId)))
    .get()
}

/** The workspace's deliveries, newest first, a page at a time (keyset on the queue position). */
export function listDeliveries(
  ctx: ServiceContext,
  { workspaceId, input }: { workspaceId: string; input: ListDeliveriesInput },
) {
  const filters: (SQL | undefined)[] = [eq(sessions.workspaceId, workspaceId)]
  if (input.sessionId) filters.push(eq(webhookDeliveries.sessionId, findSession(ctx, workspaceId, input.sessionId).id))
  if (input.webhookId) filters.push(eq(webhookDeliveries.webhookId, input.webhookId))
  if (input.status) filters.push(eq(webhookDeliveries.status, input.status))
  if (input.cursor !== undefined) {
    const position = /^\d{1,15}$/.test(input.cursor) ? Number(input.cursor) : NaN
    if (!Number.isSafeInteger(position))
      throw validationError([{ path: 'cursor', message: 'is not a cursor this API returned' }])
    filters.push(lt(webhookDeliveries.position, position))
  }
  const rows = ctx.db
    .select(columns)
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .innerJoin(sessions, eq(sessions.id, webhookDeliveries.sessionId))
    .where(and(...filters))
    .orderBy(desc(webhookDeliveries.position))
    .limit(input.limit + 1)
    .all()
  const page = rows.slice(0, input.limit)
  return {
    deliveries: withWaits(ctx, page),
    nextCursor: rows.length > input.limit ? String(page.at(-1)!.delivery.position) : null,
  }
}
