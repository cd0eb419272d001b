import type { GatewayContext } from '../context'
import { setSessionStatus } from './status'
import { findSession, sessionView } from './view'

/**
 * Unlinks the device (Baileys logout when online), closes the connection and wipes the
 * credentials. Idempotent: a disconnected session answers as it is.
 */
export async function disconnectSession(ctx: GatewayContext, { workspaceId, sessionId }: { workspaceId: string; sessionId: string }) {
  const session = findSession(ctx, workspaceId, sessionId)
  if (session.status === 'disconnected' && !ctx.engine.hasCredentials(sessionId)) return sessionView(session)
  await ctx.engine.logout(sessionId)
  const updated = setSessionStatus(ctx, sessionId, { status: 'disconnected', reason: 'client_request' })
  ctx.logger.info({ sessionId }, 'session disconnected by client')
  return sessionView(updated ?? session)
}
