import type { GatewayContext } from '../context'
import { connectedHandle } from '../sessions/connected'
import { findSession } from '../sessions/view'
import { channelFailure } from './channel-failure'
import { channelView } from './view'

/** Every channel the account follows, owns or admins, asked of WhatsApp (one made on the phone shows at once). */
export async function listChannels(ctx: GatewayContext, args: { workspaceId: string; sessionId: string }) {
  const session = findSession(ctx, args.workspaceId, args.sessionId)
  const handle = connectedHandle(ctx, session)
  try {
    return { sessionId: session.id, channels: (await handle.channels.list()).map(channelView) }
  } catch (error) {
    throw channelFailure(error, 'the channel list')
  }
}
