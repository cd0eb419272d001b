// A phone's seeded history, kept compact: per conversation only its parties, counts and newest
// time. Each message is a pure function of (conversation, index) (history-messages.ts), so a
// history of 200,000 messages costs a few hundred objects until a device links and it is sent
// chunk by chunk. Only the media messages' uploads are made up front (their files must exist).
import type { proto } from '@whiskeysockets/baileys'

/** Who writes in a seeded conversation: a sim contact (state.contacts) with its push name. */
export interface SeededParty {
  phone: string
  lid: string
  pushName: string
}

export interface SeededConversation {
  /** Position in the history: part of every message id, and the order of recency (0 newest) */
  index: number
  kind: 'chat' | 'group'
  /** The chat id as the history names it: `<lid>@lid`, `<pn>@s.whatsapp.net` or `<id>@g.us` */
  jid: string
  /** The saved contact name (chats) or the subject (groups) */
  name: string
  /** Chats only: how WhatsApp addresses it (by LID with `pnJid`, or by number with `lidJid`) */
  addressing?: 'lid' | 'pn'
  /** The contact (chats), or the contacts that write in the group besides the account */
  authors: SeededParty[]
  messages: number
  /** Timestamp (s) of the newest message; the oldest is `span` seconds before it at most */
  newest: number
  /** The last `unread` messages are inbound and unread */
  unread: number
  archived: boolean
  /** When the chat was pinned (s), 0: not pinned */
  pinned: number
  /** Muted until (s), 0: not muted */
  muteEndTime: number
}

export interface SeededHistory {
  phone: string
  /** Unique per seed in a simulator: part of every message id */
  serial: number
  /** Seconds a conversation's messages spread over (a little under `days` days) */
  span: number
  /** Chunks (bootstrap, recent, full) hold at most this many messages */
  messagesPerChunk: number
  conversations: SeededConversation[]
  /** The image messages, by message id: their files are on the media host */
  media: Map<string, proto.Message.IImageMessage>
}

/** `3EB0` + hex of serial, conversation and index: stable, unique, and read back by `parseHistoryId`. */
export const historyMessageId = (history: SeededHistory, conversation: SeededConversation, index: number): string =>
  `3EB0${hex(history.serial, 4)}${hex(conversation.index, 4)}${hex(index, 6)}`

const hex = (value: number, digits: number) => value.toString(16).toUpperCase().padStart(digits, '0')

export const parseHistoryId = (
  history: SeededHistory,
  id: string,
): { conversation: SeededConversation; index: number } | undefined => {
  const match = /^3EB0([0-9A-F]{4})([0-9A-F]{4})([0-9A-F]{6})$/.exec(id)
  if (!match || Number.parseInt(match[1]!, 16) !== history.serial) return undefined
  const conversation = history.conversations[Number.parseInt(match[2]!, 16)]
  const index = Number.parseInt(match[3]!, 16)
  return conversation && index < conversation.messages ? { conversation, index } : undefined
}

/** Message `index` (0 oldest) of a conversation: evenly spread over `span`, the newest at `newest`. */
export const messageTime = (history: SeededHistory, conversation: SeededConversation, index: number): number =>
  conversation.newest - Math.floor(((conversation.messages - 1 - index) * history.span) / conversation.messages)

/** How many of a conversation's newest messages are at `cutoff` (s) or later. */
export const countSince = (history: SeededHistory, conversation: SeededConversation, cutoff: number): number => {
  const slack = conversation.newest - cutoff
  if (slack < 0) return 0
  // message k from the newest is at newest - floor(k*span/n): kept while floor(k*span/n) <= slack
  return Math.min(conversation.messages, Math.ceil(((slack + 1) * conversation.messages) / history.span))
}

/** Whether message `index` is from the account (fromMe), and otherwise who wrote it. */
export const authorOf = (
  history: SeededHistory,
  conversation: SeededConversation,
  index: number,
): SeededParty | 'me' => {
  const inboundTail = index >= conversation.messages - conversation.unread
  if (conversation.kind === 'chat') {
    const contact = conversation.authors[0]!
    if (inboundTail || history.media.has(historyMessageId(history, conversation, index))) return contact
    return index % 3 === 1 ? 'me' : contact
  }
  const slot = index % (conversation.authors.length + 1)
  if (slot === conversation.authors.length) return inboundTail ? conversation.authors[0]! : 'me'
  return conversation.authors[slot]!
}
