import type { ChannelInfo, ChannelPost } from '../../engine/whatsapp/port/channels'

/** A channel as the API answers it. */
export const channelView = (channel: ChannelInfo) => ({
  id: channel.jid,
  name: channel.name,
  description: channel.description,
  link: channel.inviteCode ? `https://whatsapp.com/channel/${channel.inviteCode}` : null,
  subscribers: channel.subscribers,
  verified: channel.verified,
  createdAt: channel.createdAt?.toISOString() ?? null,
  role: channel.role,
  muted: channel.muted,
})

export const postView = (post: ChannelPost) => ({
  serverId: post.serverId,
  messageId: post.id,
  type: post.type,
  content: post.content,
  postedAt: post.timestamp.toISOString(),
})
