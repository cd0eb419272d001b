import type { MessageContent } from '../../../shared/message-content'
import type { MessageType } from '../../../shared/message-types'

/** What the account is to a channel, as WhatsApp's viewer metadata says. */
export type ChannelRole = 'owner' | 'admin' | 'follower' | 'guest'

/** A WhatsApp Channel (newsletter) as WhatsApp describes it to this account. */
export interface ChannelInfo {
  /** `<digits>@newsletter` */
  jid: string
  name: string
  description: string | null
  /** The code of its link, https://whatsapp.com/channel/<code>. */
  inviteCode: string | null
  subscribers: number | null
  verified: boolean
  createdAt: Date | null
  role: ChannelRole
  muted: boolean
}

/** One post of a channel: WhatsApp numbers them in the channel (serverId) besides the stanza id. */
export interface ChannelPost {
  channelJid: string
  serverId: number
  id: string
  timestamp: Date
  type: MessageType
  content: MessageContent
}

/** A channel's name or description changed (only what changed is present). */
export interface ChannelUpdate {
  channelJid: string
  name?: string
  description?: string
}

/** How a channel is named: its jid, or its link's invite code. */
export type ChannelKey = { jid: string } | { invite: string }

/** Channels the account follows or runs, and their posts (w:mex GraphQL queries and the newsletter iq). */
export interface SessionChannels {
  /** Every channel the account follows, owns or admins. */
  list(): Promise<ChannelInfo[]>
  /** A channel by jid or invite code; null when WhatsApp knows none. */
  info(key: ChannelKey): Promise<ChannelInfo | null>
  /** EngineError not_found for a channel WhatsApp does not know. */
  follow(jid: string): Promise<void>
  /** EngineError not_found for an unknown channel, refused (403) for the owner's own. */
  unfollow(jid: string): Promise<void>
  /** Its latest posts, oldest first, at most `count`. */
  posts(jid: string, count: number): Promise<ChannelPost[]>
}
