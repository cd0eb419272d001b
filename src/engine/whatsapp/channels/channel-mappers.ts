import { normalizeMessageContent, type proto } from '@whiskeysockets/baileys'
import type { ChannelInfo, ChannelPost, ChannelRole, ChannelUpdate } from '../port/channels'
import { describeMessage } from '../messages/message-content'

const ROLES: Record<string, ChannelRole> = { OWNER: 'owner', ADMIN: 'admin', SUBSCRIBER: 'follower', GUEST: 'guest' }
const CHANNEL_JID = /^\d{1,30}@newsletter$/

type Text = { text?: unknown } | null | undefined
const text = (value: Text): string | null => (typeof value?.text === 'string' && value.text !== '' ? value.text : null)
const count = (value: unknown): number | null => {
  const n = Number(value)
  return value !== null && value !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : null
}

/** Pure: WhatsApp's newsletter metadata (xwa2_newsletter, as Baileys and whatsmeow read it) → ChannelInfo; null when it names no channel. */
export function toChannelInfo(raw: unknown): ChannelInfo | null {
  const entry = raw as {
    id?: unknown
    thread_metadata?: {
      name?: Text
      description?: Text
      invite?: unknown
      subscribers_count?: unknown
      verification?: unknown
      creation_time?: unknown
    }
    viewer_metadata?: { role?: unknown; mute?: unknown } | null
  } | null
  if (typeof entry?.id !== 'string' || !CHANNEL_JID.test(entry.id)) return null
  const thread = entry.thread_metadata ?? {}
  const created = count(thread.creation_time)
  return {
    jid: entry.id,
    name: text(thread.name) ?? '',
    description: text(thread.description),
    inviteCode: typeof thread.invite === 'string' && thread.invite !== '' ? thread.invite : null,
    subscribers: count(thread.subscribers_count),
    verified: thread.verification === 'VERIFIED',
    createdAt: created === null ? null : new Date(created * 1000),
    role: ROLES[String(entry.viewer_metadata?.role)] ?? 'guest',
    muted: entry.viewer_metadata?.mute === 'ON',
  }
}

/** Pure: one post (a <message> of a channel, its attrs and decoded plaintext) → ChannelPost; null for plumbing. */
export function toChannelPost(
  channelJid: string,
  attrs: Record<string, string | undefined>,
  message: proto.IMessage | null | undefined,
): ChannelPost | null {
  const content = normalizeMessageContent(message)
  const serverId = Number(attrs.server_id)
  if (!content || !Number.isSafeInteger(serverId)) return null
  const described = describeMessage(content)
  const seconds = Number(attrs.t)
  return {
    channelJid,
    serverId,
    id: attrs.id ?? String(serverId),
    timestamp: new Date(Number.isFinite(seconds) ? seconds * 1000 : Date.now()),
    type: described.type,
    content: described.content,
  }
}

/** WhatsApp caps a channel's name at 100 characters and its description at 2,048; anything past that is not kept. */
const NAME_MAX = 100
const DESCRIPTION_MAX = 2_048

/** Pure: Baileys' `newsletter-settings.update` → ChannelUpdate; null when it names no channel or changes nothing we report. */
export function toChannelUpdate(event: { id?: unknown; update?: unknown }): ChannelUpdate | null {
  if (typeof event.id !== 'string' || !CHANNEL_JID.test(event.id)) return null
  const update = (event.update ?? {}) as { name?: unknown; description?: unknown }
  const name = typeof update.name === 'string' ? update.name.slice(0, NAME_MAX) : undefined
  const description = typeof update.description === 'string' ? update.description.slice(0, DESCRIPTION_MAX) : undefined
  if (name === undefined && description === undefined) return null
  return {
    channelJid: event.id,
    ...(name !== undefined ? { name } : {}),
    ...(description !== undefined ? { description } : {}),
  }
}
