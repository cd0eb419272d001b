import type { GatewayContext } from '../context'
import { transition } from './transitions'
import { findSession, sessionView } from './view'

/**
 * Unlinks the device (when online), closes the connection and wipes the credentials.
 * The session is marked `disconnected` first: a client's disconnect wins over anything the
 * connection reports later. Idempotent: a disconnected session answers as it is.
 */
export async function disconnectSession(ctx: GatewayContext, { workspaceId, sessionId }: { workspaceId: string; sessionId: string }) {
  const session = findSession(ctx, workspaceId, sessionId)
  const handle = ctx.engine.session(sessionId)
  if (session.status === 'disconnected' && !handle && !ctx.engine.hasCredentials(sessionId)) return sessionView(session)

  const result = transition(ctx, sessionId, { status: 'disconnected', reason: 'client_request' })
  if (handle?.online) {
    try {
      await handle.unlink()
    } catch (error) {
      ctx.logger.warn({ err: error, sessionId }, 'unlink did not reach WhatsApp; wiping credentials locally')
    }
  } else {
    await handle?.end()
  }
  ctx.engine.wipeCredentials(sessionId)
  ctx.logger.info({ sessionId }, 'session disconnected by client')
  return sessionView(result.session ?? session)
}
