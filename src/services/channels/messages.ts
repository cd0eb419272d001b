import type { GatewayContext } from '../context'
import { connectedHandle } from '../sessions/connected'
import { findSession } from '../sessions/view'
import { channelFailure } from './channel-failure'
import { postView } from './view'

/** A channel's latest posts, oldest first, read from WhatsApp (the gateway stores none). */
export async function channelMessages(
  ctx: GatewayContext,
  args: { workspaceId: string; sessionId: string; channelId: string; limit: number },
) {
  const session = findSession(ctx, args.workspaceId, args.sessionId)
  const handle = connectedHandle(ctx, session)
  try {
    const posts = await handle.channels.posts(args.channelId, args.limit)
    return { sessionId: session.id, channelId: args.channelId, messages: posts.map(postView) }
  } catch (error) {
    throw channelFailure(error, 'the channel’s messages query', args.channelId)
  }
}
