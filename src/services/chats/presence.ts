import { GatewayError } from '../../errors'
import type { PresenceInput } from '../../schemas/chat'
import type { GatewayContext } from '../context'
import { engineFailure } from '../engine-failure'
import { connectedHandle } from '../sessions/connected'
import { findSession } from '../sessions/view'

/**
 * Shows "typing…" / "recording audio…" in a chat (or stops it: paused), or the account as
 * online/offline (available/unavailable). Nothing is stored: presence is a moment's signal.
 */
export async function sendPresence(
  ctx: GatewayContext,
  { workspaceId, input }: { workspaceId: string; input: PresenceInput },
) {
  const session = findSession(ctx, workspaceId, input.sessionId)
  const handle = connectedHandle(ctx, session)
  const chat = input.phone
  if (!chat && !handle.hasProfileName) {
    throw new GatewayError(
      'upstream_error',
      'WhatsApp has not given this session the account’s profile name yet (it comes with the phone’s first sync after linking); account presence needs it. Try again later.',
      { reason: 'no_profile_name' },
    )
  }
  try {
    await handle.sendPresence(
      chat
        ? { state: input.state as 'composing' | 'recording' | 'paused', chatJid: chat.jid }
        : { state: input.state as 'available' | 'unavailable' },
    )
  } catch (error) {
    throw engineFailure(error, {
      timeout: 'WhatsApp did not take the presence update in time',
      upstream: 'WhatsApp refused the presence update',
      not_connected: 'The session went offline; the presence update was not sent',
    })
  }
  return { sessionId: session.id, phone: chat?.input ?? null, state: input.state }
}
