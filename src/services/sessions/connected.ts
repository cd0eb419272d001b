import type { Session } from '../../db/schema'
import type { SessionHandle } from '../../engine/whatsapp/port'
import { GatewayError } from '../../errors'
import type { GatewayContext } from '../context'

/** The live handle of a connected session, or 409: nothing is queued silently. */
export function connectedHandle(ctx: GatewayContext, session: Session): SessionHandle {
  const handle = ctx.engine.session(session.id)
  if (session.status !== 'connected' || !handle?.online) {
    throw new GatewayError('session_not_connected', notConnectedMessage(session), { status: session.status })
  }
  return handle
}

/**
 * What a request to a session that is not connected is told, with the next step where there is
 * one: a pending session waits for its QR to be scanned (the first thing a new user meets, who
 * connected and sent at once), a finished one must be paired again.
 */
function notConnectedMessage(session: Pick<Session, 'id' | 'status'>): string {
  const what = `Session is ${session.status}, not connected; nothing was done`
  switch (session.status) {
    case 'pending':
      return `${what}. It waits to be paired: scan its QR code (GET /v1/session/${session.id}/qr, or the panel at /panel) with WhatsApp → Linked devices`
    case 'expired':
    case 'logged_out':
    case 'disconnected':
      return `${what}. Pair it again with POST /v1/session/connect and its sessionName`
    default:
      return what
  }
}
