import type { GatewayContext } from '../context'
import { connectedHandle } from '../sessions/connected'
import { findSession } from '../sessions/view'
import { channelFailure } from './channel-failure'

/**
 * Follows or unfollows a channel. Idempotent as WhatsApp is: following one already followed
 * answers the same. An unknown channel is 404; unfollowing the account's own channel is 403
 * (WhatsApp refuses it: an owner deletes a channel, from the phone).
 */
export async function setChannelFollowed(
  ctx: GatewayContext,
  args: { workspaceId: string; sessionId: string; channelId: string; follow: boolean },
) {
  const session = findSession(ctx, args.workspaceId, args.sessionId)
  const handle = connectedHandle(ctx, session)
  try {
    if (args.follow) await handle.channels.follow(args.channelId)
    else await handle.channels.unfollow(args.channelId)
  } catch (error) {
    throw channelFailure(error, args.follow ? 'the follow' : 'the unfollow', args.channelId)
  }
  return { sessionId: session.id, channelId: args.channelId, following: args.follow }
}
