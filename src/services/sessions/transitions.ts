import { eq } from 'drizzle-orm'
import { isLive, sessions, type Session } from '../../db/schema'
import type { SessionStatus } from '../../shared/session-statuses'
import type { DbOrTx } from '../../webhooks/outbox'
import type { GatewayContext } from '../context'
import { sessionById } from './view'

/**
 * Every status change a session may make (docs/architecture.md "Session states"). Anything not
 * listed is refused, which is how a late fact loses to the client: once a session is
 * `disconnected`, an `opened` from a socket that was still pairing cannot bring it back.
 */
export const allowedTransitions: Record<SessionStatus, readonly SessionStatus[]> = {
  // pairing: linked, ran out, taken away; `connecting` after a restart mid-515
  pending: ['pending', 'connected', 'connecting', 'expired', 'disconnected'],
  // (re)opening with credentials: online, refused, displaced, or closed by the client
  connecting: ['connecting', 'connected', 'logged_out', 'disconnected', 'expired'],
  connected: ['connecting', 'logged_out', 'disconnected'],
  // finished sessions only start over through connect (or are disconnected for good)
  expired: ['pending', 'disconnected'],
  logged_out: ['pending', 'disconnected'],
  disconnected: ['pending', 'disconnected'],
}

export const canTransition = (from: SessionStatus, to: SessionStatus) => allowedTransitions[from].includes(to)

export interface StatusChange {
  status: SessionStatus
  reason: string | null
  number?: string
  lid?: string
}

export type TransitionResult =
  | { applied: true; session: Session; previousStatus: SessionStatus; changed: boolean }
  | { applied: false; session: Session | undefined }

/** The columns a status change may write with it (claimSession's new pairing settings). */
type WithStatus = Partial<Omit<typeof sessions.$inferInsert, 'id' | 'workspaceId' | 'status' | 'statusReason'>>

/**
 * The one writer of a session's status, inside the caller's immediate transaction: the change
 * is checked against the table (undefined when it refuses it), written with what it implies
 * (lastSeen, the QR, updatedAt) and any columns the caller adds, its `session.status` event
 * recorded when something changed, and an unlink's hooks run.
 */
export function writeStatus(
  tx: DbOrTx,
  ctx: GatewayContext,
  current: Session,
  change: StatusChange,
  columns: WithStatus = {},
): { session: Session; changed: boolean } | undefined {
  if (!canTransition(current.status, change.status)) return undefined
  const now = ctx.clock.now()
  const online = change.status === 'connected' || current.status === 'connected'
  const changed = current.status !== change.status || current.statusReason !== change.reason
  // A QR belongs to the pairing under way: gone once it ends, and one the socket showed
  // before a change within pending (a restart) is not scanned any more.
  const qrOver = change.status !== 'pending' || changed
  const session = tx
    .update(sessions)
    .set({
      ...columns,
      status: change.status,
      statusReason: change.reason,
      ...(change.number ? { number: change.number } : {}),
      ...(change.lid ? { lid: change.lid } : {}),
      ...(online ? { lastSeen: now } : {}),
      ...(qrOver ? { qrCode: null, qrOfferedAt: null } : {}),
      updatedAt: now,
    })
    .where(eq(sessions.id, current.id))
    .returning()
    .get()
  if (changed) recordStatusEvent(tx, ctx, session, current.status)
  if (!isLive(change.status)) for (const forget of ctx.unlinkHooks) forget(tx, current.id)
  return { session, changed }
}

/** A new session's row: born `pending` (the table's only way in), its `session.status` event with it. */
export function insertPendingSession(
  tx: DbOrTx,
  ctx: GatewayContext,
  values: Omit<typeof sessions.$inferInsert, 'status' | 'statusReason'>,
): Session {
  const session = tx
    .insert(sessions)
    .values({ ...values, status: 'pending', statusReason: null })
    .returning()
    .get()
  recordStatusEvent(tx, ctx, session, null)
  return session
}

/**
 * A status change on its own: written by writeStatus in one immediate transaction (so two
 * changes cannot both pass the check on the same old row), then announced. lastSeen is the
 * last moment the session was known online.
 */
export function transition(ctx: GatewayContext, sessionId: string, change: StatusChange): TransitionResult {
  const result = ctx.db.transaction(
    (tx): TransitionResult => {
      const current = sessionById(tx, sessionId)
      const written = current && writeStatus(tx, ctx, current, change)
      if (!written) return { applied: false, session: current }
      return { applied: true, session: written.session, previousStatus: current.status, changed: written.changed }
    },
    { behavior: 'immediate' },
  )
  if (result.applied && result.changed) announceStatusChange(ctx, result.session, result.previousStatus)
  if (!result.applied && result.session) {
    ctx.logger.debug({ sessionId, from: result.session.status, to: change.status }, 'status change refused')
  }
  return result
}

/** The `session.status` webhook event, written in the transaction that changed the status. */
export function recordStatusEvent(
  tx: DbOrTx,
  ctx: GatewayContext,
  session: Session,
  previousStatus: SessionStatus | null,
): void {
  ctx.outbox.record(tx, {
    sessionId: session.id,
    type: 'session.status',
    data: { status: session.status, previousStatus, statusReason: session.statusReason, number: session.number },
    at: session.updatedAt,
  })
}

/** Logs a status change and puts it on the event bus (the webhook event is already in the outbox). */
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
