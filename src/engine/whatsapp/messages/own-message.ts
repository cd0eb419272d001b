import { getContentType, normalizeMessageContent, proto, type WAMessage } from '@whiskeysockets/baileys'
import { PLUMBING } from './inbound-message'
import { chatParty } from '../jid'
import { describeMessage } from './message-content'
import type { OwnMessage } from '../port/messages'
import { isChatMessage, timestampMs } from './message-keys'

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
