import { getContentType, normalizeMessageContent, proto, type WAMessage } from '@whiskeysockets/baileys'
import { PLUMBING } from './inbound-message'
import { chatParty } from '../jid'
import { describeMessage, type MessageContent, type MessageType } from './message-content'
import { isChatMessage, timestampMs } from './message-keys'

/**
 * A message the account itself sent from WhatsApp (its phone or another linked device), or
 * one this gateway sent coming back: Baileys gives both as `fromMe` upserts.
 */
export interface OwnMessage {
  id: string
  /** The chat as WhatsApp addressed it: `<pn>@s.whatsapp.net`, `<lid>@lid` or `<id>@g.us`. */
  chatJid: string
  /** 1:1: the recipient's phone (digits) and LID, whichever WhatsApp revealed. */
  phone?: string
  lid?: string
  type: MessageType
  content: MessageContent
  quoteId?: string
  timestamp: Date
  /** proto.Message encoded, kept so replies can quote it (and votes on its poll decrypt). */
  payload: Uint8Array
}

/**
 * Pure: a Baileys `messages.upsert` entry → the account's own message to record, or null for
 * anything else (others' messages, plumbing, reactions and votes, statuses, undecryptable stubs).
 */
export function toOwnMessage(message: WAMessage): OwnMessage | null {
  const key = message.key
  if (!key?.fromMe || !isChatMessage(key)) return null
  const content = normalizeMessageContent(message.message)
  const contentType = content ? getContentType(content) : undefined
  if (!content || !contentType || PLUMBING.has(contentType)) return null
  const described = describeMessage(content)
  const chat = chatParty(key.remoteJid, key.remoteJidAlt)
  return {
    id: key.id,
    chatJid: key.remoteJid,
    ...(chat.group ? {} : { phone: chat.phone, lid: chat.lid }),
    type: described.type,
    content: described.content,
    ...(described.quoteId ? { quoteId: described.quoteId } : {}),
    timestamp: new Date(timestampMs(undefined, message.messageTimestamp)),
    payload: proto.Message.encode(message.message!).finish(),
  }
}
