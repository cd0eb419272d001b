import { and, eq } from 'drizzle-orm'
import { sessions } from '../../db/schema'
import type { SessionStatus } from '../../shared/session-statuses'
import { GatewayError } from '../../errors'
import type { GatewayContext, ServiceContext } from '../context'
import { findSession } from './view'

export interface CurrentQr {
  sessionId: string
  qrCode: string
  /** When WhatsApp offered it; it is replaced every 20 to 60 s while the pairing lasts. */
  createdAt: string
}

/**
 * A QR WhatsApp offers a session that is still pairing (never one the client disconnected):
 * kept on the session's row, and its `session.qr` event written (where the session wants it) in
 * the same transaction. Answers the session's workspace when kept, undefined when the session
 * is not pending any more.
 */
export function keepQr(ctx: GatewayContext, sessionId: string, qr: string): string | undefined {
  const offeredAt = ctx.clock.now()
  return ctx.db.transaction(
    (tx) => {
      const kept = tx
        .update(sessions)
        .set({ qrCode: qr, qrOfferedAt: offeredAt })
        .where(and(eq(sessions.id, sessionId), eq(sessions.status, 'pending')))
        .returning({ workspaceId: sessions.workspaceId })
        .get()
      if (kept) ctx.outbox.record(tx, { sessionId, type: 'session.qr', data: { qr }, at: offeredAt })
      return kept?.workspaceId
    },
    { behavior: 'immediate' },
  )
}

/**
 * The QR a pending session shows now, from its row: every process reads the same, whichever
 * events the session chose. A session in another status has none to show: 409, a conflict with
 * its state, with what to do instead; a pending one whose pairing has not been offered a QR yet
 * (a status change clears the last one, see transition) is 404 until WhatsApp offers one.
 */
export function currentQr(
  ctx: ServiceContext,
  { workspaceId, sessionId }: { workspaceId: string; sessionId: string },
): CurrentQr {
  const session = findSession(ctx, workspaceId, sessionId)
  if (session.status !== 'pending') {
    throw new GatewayError('session_state_conflict', noQrMessage(session.id, session.status), {
      status: session.status,
    })
  }
  if (session.qrCode === null || session.qrOfferedAt === null) {
    throw new GatewayError('not_found', `Session "${sessionId}" has no QR code yet; ask again in a moment`, {
      status: session.status,
    })
  }
  return { sessionId, qrCode: session.qrCode, createdAt: session.qrOfferedAt.toISOString() }
}

/** Why a session that is not pairing shows no QR, and the next step. */
function noQrMessage(sessionId: string, status: Exclude<SessionStatus, 'pending'>): string {
  const what = `Session "${sessionId}" is ${status}`
  if (status === 'connected' || status === 'connecting') {
    return `${what}: it is already paired, there is no QR code to scan`
  }
  return `${what}: it has no QR code to scan; pair it again with POST /v1/session/connect and its sessionName`
}
