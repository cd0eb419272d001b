import type { GatewayContext } from '../context'
import { transition } from './transitions'
import { reconnectToUnlink } from './unlink'
import { findSession, sessionView } from './view'

/**
 * Unlinks the device, closes the connection and wipes the credentials. The session is
 * marked `disconnected` first: a client's disconnect wins over anything the connection
 * reports later. A session offline at that moment keeps its credentials until WhatsApp has
 * been told (it reconnects only to unlink, with backoff, across restarts too), so the device
 * does not stay listed on the phone for ever. Idempotent.
 */
export async function disconnectSession(
  ctx: GatewayContext,
  { workspaceId, sessionId }: { workspaceId: string; sessionId: string },
) {
  const session = findSession(ctx, workspaceId, sessionId)
  const result = transition(ctx, sessionId, { status: 'disconnected', reason: 'client_request' })
  const handle = ctx.engine.session(sessionId)
  if (handle?.online) {
    try {
      await handle.unlink()
      ctx.engine.wipeCredentials(sessionId)
      ctx.logger.info({ sessionId }, 'session disconnected by client; device unlinked')
      return sessionView(result.session ?? session)
    } catch (error) {
      ctx.logger.warn({ err: error, sessionId }, 'unlink did not reach WhatsApp; will try again')
    }
  } else {
    await handle?.end()
  }
  if (ctx.engine.hasCredentials(sessionId)) {
    ctx.logger.info({ sessionId }, 'session disconnected by client while offline; unlinking when WhatsApp is reachable')
    await reconnectToUnlink(ctx, sessionId)
  } else {
    ctx.engine.wipeCredentials(sessionId) // a pairing's half-written keys
  }
  return sessionView(result.session ?? session)
}
