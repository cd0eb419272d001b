import { GatewayError } from '../../errors'
import type { SessionStatus } from '../../shared/session-statuses'
import type { GatewayContext } from '../context'
import { sessionProxy } from './proxy'
import { historyAsk } from '../history/setting'
import { transition } from './transitions'
import { findSession, sessionView } from './view'

/** A restart reopens a link that has credentials; a pairing has none yet, finished sessions start over by connect. */
const RESTARTABLE: readonly SessionStatus[] = ['connecting', 'connected']

/**
 * Closes one session's connection and opens a new one with its stored credentials: no logout,
 * no QR, records and webhook settings untouched. For a session that looks stuck (`connecting`
 * in a long backoff, or `connected` with nothing arriving); the reconnect is immediate.
 */
export async function restartSession(
  ctx: GatewayContext,
  { workspaceId, sessionId }: { workspaceId: string; sessionId: string },
) {
  const session = findSession(ctx, workspaceId, sessionId)
  if (!RESTARTABLE.includes(session.status) || !ctx.engine.hasCredentials(sessionId)) {
    throw new GatewayError(
      'session_not_connected',
      `Session "${sessionId}" is ${session.status}: only a connected or connecting session with credentials can be restarted; connect it again instead`,
      { status: session.status },
    )
  }
  const result = transition(ctx, sessionId, { status: 'connecting', reason: 'client_restart' })
  // A disconnect that won the race leaves nothing to restart.
  if (!result.applied) throw new GatewayError('session_not_connected', `Session "${sessionId}" was closed meanwhile`)
  await ctx.engine.session(sessionId)?.end()
  await ctx.engine.open(sessionId, {
    mode: session.pairingMode,
    autoRejectCalls: session.autoRejectCalls,
    proxy: sessionProxy(ctx, session),
    history: historyAsk(session),
  })
  ctx.logger.info({ sessionId }, 'session restarted by client')
  return sessionView(result.session)
}
