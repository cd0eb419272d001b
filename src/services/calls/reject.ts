import { GatewayError } from '../../errors'
import type { GatewayContext } from '../context'
import { engineFailure } from '../engine-failure'
import { connectedHandle } from '../sessions/connected'
import { findSession } from '../sessions/view'

/**
 * Rejects one incoming call while it rings (the caller sees it declined), whatever the
 * session's autoRejectCalls says. A call that ended, was answered on the phone or was already
 * rejected is 404: there is nothing left to reject.
 */
export async function rejectCall(
  ctx: GatewayContext,
  args: { workspaceId: string; sessionId: string; callId: string },
) {
  const session = findSession(ctx, args.workspaceId, args.sessionId)
  const handle = connectedHandle(ctx, session)
  let call: { from: string } | null
  try {
    call = await handle.rejectCall(args.callId)
  } catch (error) {
    throw engineFailure(error, {
      timeout: 'WhatsApp did not take the rejection in time; the call may still ring',
      upstream: 'WhatsApp refused the rejection',
      not_connected: 'The session went offline; the call was not rejected',
    })
  }
  if (!call)
    throw new GatewayError(
      'not_found',
      `No call ${args.callId} is ringing on this session: it ended, was answered, or was rejected already`,
      { field: 'callId' },
    )
  return { sessionId: session.id, callId: args.callId, from: call.from, rejected: true as const }
}
