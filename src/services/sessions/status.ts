import { eq } from 'drizzle-orm'
import { sessions, type Session, type SessionStatus } from '../../db/schema'
import type { GatewayContext } from '../context'

export interface StatusChange {
  status: SessionStatus
  reason: string | null
  number?: string
  lid?: string
}

/**
 * The one place a session's status changes: persisted with its reason and lastSeen, then
 * announced on the event bus. lastSeen is the last moment the session was known online.
 */
export function setSessionStatus(ctx: GatewayContext, sessionId: string, change: StatusChange): Session | undefined {
  const current = ctx.db.select().from(sessions).where(eq(sessions.id, sessionId)).get()
  if (!current) return undefined
  const now = ctx.clock.now()
  const online = change.status === 'connected' || current.status === 'connected'
  const updated = ctx.db
    .update(sessions)
    .set({
      status: change.status,
      statusReason: change.reason,
      ...(change.number ? { number: change.number } : {}),
      ...(change.lid ? { lid: change.lid } : {}),
      ...(online ? { lastSeen: now } : {}),
      updatedAt: now,
    })
    .where(eq(sessions.id, sessionId))
    .returning()
    .get()
  if (current.status !== change.status || current.statusReason !== change.reason) {
    announceStatusChange(ctx, updated, current.status)
  }
  return updated
}

/** Logs a status change and puts it on the event bus (the webhook outbox listens there). */
export function announceStatusChange(ctx: GatewayContext, session: Session, previousStatus: SessionStatus): void {
  ctx.logger.info(
    { sessionId: session.id, status: session.status, previousStatus, statusReason: session.statusReason },
    'session status',
  )
  ctx.events.emit('session.status', {
    sessionId: session.id,
    workspaceId: session.workspaceId,
    status: session.status,
    previousStatus,
    statusReason: session.statusReason,
    at: session.updatedAt,
  })
}
