// A channel as tests see it: its state, posts made to it (as its owner's phone would), and who
// follows it. The account side (follow, unfollow, send) goes through the client's w:mex iqs.
import { proto } from '@whiskeysockets/baileys'
import { channelOf, newChannelInvite, newChannelJid, postToChannel, roleIn, type ChannelRole } from './channels'
import { SimulatorError } from './errors'
import { serverMessageId, unixNow } from './node-utils'
import type { SimState } from './state'

export interface ChannelOptions {
  name: string
  description?: string
  /** The account (phone) that owns it; none: a channel run by someone outside the simulation */
  owner?: string
  /** Accounts that follow it from the start */
  followers?: string[]
}

export interface ChannelSnapshot {
  jid: string
  name: string
  description: string
  inviteCode: string
  owner: string | undefined
  followers: string[]
  posts: { serverId: number; id: string; timestamp: number; message: proto.IMessage; sentBy?: string }[]
}

export function createChannel(state: SimState, options: ChannelOptions): ChannelHandle {
  for (const phone of [options.owner, ...(options.followers ?? [])])
    if (phone !== undefined && !state.accounts.has(phone))
      throw new SimulatorError('unknown_account', `no account ${phone}`, 404)
  const jid = newChannelJid()
  state.channels.set(jid, {
    jid,
    name: options.name,
    description: options.description ?? '',
    inviteCode: newChannelInvite(),
    createdAt: Math.floor(Date.now() / 1000),
    owner: options.owner,
    admins: new Set(),
    followers: new Set(options.followers ?? []),
    posts: [],
  })
  return new ChannelHandle(state, jid)
}

export class ChannelHandle {
  constructor(
    private readonly state: SimState,
    readonly jid: string,
  ) {}

  info(): ChannelSnapshot {
    const channel = channelOf(this.state, this.jid)
    return {
      jid: channel.jid,
      name: channel.name,
      description: channel.description,
      inviteCode: channel.inviteCode,
      owner: channel.owner,
      followers: [...channel.followers],
      posts: channel.posts.map(({ bytes, ...post }) => ({ ...post, message: proto.Message.decode(bytes) })),
    }
  }

  /** The channel's link, as WhatsApp shares it. */
  get link(): string {
    return `https://whatsapp.com/channel/${channelOf(this.state, this.jid).inviteCode}`
  }

  roleOf(phone: string): ChannelRole {
    return roleIn(channelOf(this.state, this.jid), phone)
  }

  /**
   * The owner changes the name or description (from its phone): every live reader's device is
   * told with a newsletter notification's <update><settings>, as Baileys reads it.
   */
  update(changes: { name?: string; description?: string }): void {
    const channel = channelOf(this.state, this.jid)
    if (changes.name !== undefined) channel.name = changes.name
    if (changes.description !== undefined) channel.description = changes.description
    const settings = [
      ...(changes.name !== undefined ? [{ tag: 'name', attrs: {}, content: Buffer.from(changes.name) }] : []),
      ...(changes.description !== undefined
        ? [{ tag: 'description', attrs: {}, content: Buffer.from(changes.description) }]
        : []),
    ]
    const readers = new Set([...channel.followers, ...channel.admins, ...(channel.owner ? [channel.owner] : [])])
    for (const phone of readers) {
      const account = this.state.accounts.get(phone)
      const connection = account && this.state.liveConnectionOf(account)
      connection?.sendNode({
        tag: 'notification',
        attrs: { from: channel.jid, type: 'newsletter', id: serverMessageId('NL'), t: unixNow() },
        content: [{ tag: 'update', attrs: {}, content: [{ tag: 'settings', attrs: {}, content: settings }] }],
      })
    }
  }

  /** A post made from the owner's phone (or by the outside owner): every live follower gets it -> its server id. */
  post(content: { text: string }): number {
    const channel = channelOf(this.state, this.jid)
    return postToChannel(this.state, channel, { conversation: content.text }).serverId
  }
}
