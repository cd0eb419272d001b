// WhatsApp Channels (newsletters) as the server keeps them: who owns, admins and follows each one,
// its posts (plaintext protos with a server id), and the metadata shape w:mex queries answer
// (WhatsApp Web's GraphQL: thread_metadata + viewer_metadata, as Baileys and whatsmeow read it).
// A post reaches every live follower as <message from="…@newsletter"><plaintext>, unencrypted.
import { proto } from '@whiskeysockets/baileys'
import { randomBytes } from 'node:crypto'
import { SimulatorError } from './errors'
import { serverMessageId } from './node-utils'
import type { SimState } from './state'

export interface ChannelPost {
  /** The server's sequence number of the post in its channel (1, 2, …) */
  serverId: number
  /** The stanza id the post was sent under */
  id: string
  /** s */
  timestamp: number
  /** proto.Message encoded, as the plaintext node carries it */
  bytes: Buffer
  /** The phone of the account whose client sent it, or undefined for a post made from the test */
  sentBy?: string
}

export interface Channel {
  jid: string
  name: string
  description: string
  /** The code of its link, https://whatsapp.com/channel/<code> */
  inviteCode: string
  /** s */
  createdAt: number
  /** Phone of the owner (an account), if any */
  owner: string | undefined
  admins: Set<string>
  followers: Set<string>
  posts: ChannelPost[]
}

export type ChannelRole = 'OWNER' | 'ADMIN' | 'SUBSCRIBER' | 'GUEST'

export const roleIn = (channel: Channel, phone: string): ChannelRole =>
  channel.owner === phone
    ? 'OWNER'
    : channel.admins.has(phone)
      ? 'ADMIN'
      : channel.followers.has(phone)
        ? 'SUBSCRIBER'
        : 'GUEST'

let created = 0
export const newChannelJid = (): string =>
  `120363${Date.now().toString().slice(-9)}${(created++ % 1000).toString().padStart(3, '0')}@newsletter`

export const newChannelInvite = (): string => randomBytes(16).toString('base64url').replace(/[-_]/g, 'A').slice(0, 22)

export function channelOf(state: SimState, jid: string): Channel {
  const channel = state.channels.get(jid)
  if (!channel) throw new SimulatorError('unknown_channel', `no channel ${jid}`, 404)
  return channel
}

/** The channel as xwa2_newsletter answers it, seen by `phone`. */
export function channelMetadata(channel: Channel, phone: string) {
  const subscribers = channel.followers.size + (channel.owner ? 1 : 0) + channel.admins.size
  return {
    id: channel.jid,
    state: { type: 'ACTIVE' },
    thread_metadata: {
      creation_time: String(channel.createdAt),
      invite: channel.inviteCode,
      name: { id: `${channel.createdAt}`, text: channel.name, update_time: String(channel.createdAt) },
      description: { id: `${channel.createdAt}`, text: channel.description, update_time: String(channel.createdAt) },
      subscribers_count: String(subscribers),
      verification: 'UNVERIFIED',
      picture: null,
      preview: null,
      settings: { reaction_codes: { value: 'ALL' } },
    },
    viewer_metadata: { mute: 'OFF', role: roleIn(channel, phone) },
  }
}

/** A post in the channel, delivered to every live follower (the owner and admins too: they follow it). */
export function postToChannel(
  state: SimState,
  channel: Channel,
  message: proto.IMessage,
  sentBy?: string,
  id?: string,
) {
  const post: ChannelPost = {
    serverId: (channel.posts.at(-1)?.serverId ?? 99) + 1,
    id: id ?? serverMessageId(),
    timestamp: Math.floor(Date.now() / 1000),
    bytes: Buffer.from(proto.Message.encode(message).finish()),
    ...(sentBy ? { sentBy } : {}),
  }
  channel.posts.push(post)
  const readers = new Set([...channel.followers, ...channel.admins, ...(channel.owner ? [channel.owner] : [])])
  for (const phone of readers) {
    // The sender's own device learns of its send from the server ack, not from a copy.
    if (phone === sentBy) continue
    const account = state.accounts.get(phone)
    const connection = account && state.liveConnectionOf(account)
    if (!connection) continue
    connection.sendNode({
      tag: 'message',
      attrs: {
        from: channel.jid,
        id: post.id,
        server_id: String(post.serverId),
        t: String(post.timestamp),
        type: message.conversation || message.extendedTextMessage ? 'text' : 'media',
      },
      content: [{ tag: 'plaintext', attrs: {}, content: post.bytes }],
    })
  }
  return post
}

/** A post as the newsletter iq's message list carries it. */
export const postNode = (post: ChannelPost) => ({
  tag: 'message',
  attrs: { id: post.id, server_id: String(post.serverId), t: String(post.timestamp), type: 'text' },
  content: [{ tag: 'plaintext', attrs: {}, content: post.bytes }],
})
