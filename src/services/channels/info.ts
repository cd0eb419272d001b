import type { ChannelKey } from '../../engine/whatsapp/port/channels'
import { GatewayError } from '../../errors'
import type { GatewayContext } from '../context'
import { connectedHandle } from '../sessions/connected'
import { findSession } from '../sessions/view'
import { channelFailure } from './channel-failure'
import { channelView } from './view'

/** One channel, by id or by its link's code, as WhatsApp describes it to the account. */
export async function channelInfo(
  ctx: GatewayContext,
  args: { workspaceId: string; sessionId: string; key: ChannelKey },
) {
  const session = findSession(ctx, args.workspaceId, args.sessionId)
  const handle = connectedHandle(ctx, session)
  const named = 'jid' in args.key ? args.key.jid : undefined
  let channel: Awaited<ReturnType<typeof handle.channels.info>>
  try {
    channel = await handle.channels.info(args.key)
  } catch (error) {
    throw channelFailure(error, 'the channel query', named)
  }
  if (!channel) throw new GatewayError('not_found', `WhatsApp knows no channel ${named ?? 'by that link'}`)
  return { sessionId: session.id, channel: channelView(channel) }
}
