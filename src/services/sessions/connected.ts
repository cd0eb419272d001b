import type { Session } from '../../db/schema'
import type { SessionHandle } from '../../engine/whatsapp/port'
import { GatewayError } from '../../errors'
import type { GatewayContext } from '../context'

/** The live handle of a connected session, or 409: nothing is queued silently. */
export function connectedHandle(ctx: GatewayContext, session: Session): SessionHandle {
  const handle = ctx.engine.session(session.id)
  if (session.status !== 'connected' || !handle?.online) {
    throw new GatewayError('session_not_connected', `Session is ${session.status}, not connected; nothing was done`, {
      status: session.status,
    })
  }
  return handle
}
