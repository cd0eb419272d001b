import type { ChannelPost, ChannelUpdate } from '../../engine/whatsapp/port/channels'
import type { GatewayContext } from '../context'
import { sessionById } from '../sessions/view'

/** A post in a followed channel: its channel.message event (posts are not stored; WhatsApp keeps them). */
export function onChannelPost(ctx: GatewayContext, sessionId: string, post: ChannelPost): void {
  if (!sessionById(ctx.db, sessionId)) return
  ctx.db.transaction(
    (tx) =>
      void ctx.outbox.record(tx, {
        sessionId,
        type: 'channel.message',
        data: {
          channelId: post.channelJid,
          serverId: post.serverId,
          messageId: post.id,
          type: post.type,
          content: post.content,
          postedAt: post.timestamp.toISOString(),
        },
      }),
    { behavior: 'immediate' },
  )
}

/** A followed channel's new name or description: its channel.updated event, with only what changed. */
export function onChannelUpdate(ctx: GatewayContext, sessionId: string, update: ChannelUpdate): void {
  if (!sessionById(ctx.db, sessionId)) return
  const { channelJid, ...changed } = update
  ctx.db.transaction(
    (tx) =>
      void ctx.outbox.record(tx, { sessionId, type: 'channel.updated', data: { channelId: channelJid, ...changed } }),
    { behavior: 'immediate' },
  )
}
