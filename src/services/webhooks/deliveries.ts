import { and, desc, eq, lt, type SQL } from 'drizzle-orm'
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

export function deliveryView({ delivery, type, sequence }: Row): DeliveryView {
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
    createdAt: delivery.createdAt.toISOString(),
  }
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
    deliveries: page.map(deliveryView),
    nextCursor: rows.length > input.limit ? String(page.at(-1)!.delivery.position) : null,
  }
}
