import { getContentType, normalizeMessageContent, proto, type WAMessage } from '@whiskeysockets/baileys'
import { describeMessage } from './message-content'
import type { InboundChange, InboundMessage } from '../port/messages'
import { chatParty } from '../jid'

/** Only plumbing, no content a person reads: never recorded. */
export const PLUMBING = new Set([
  'protocolMessage',
  'senderKeyDistributionMessage',
  'messageContextInfo',
  'reactionMessage',
  'pollUpdateMessage',
  'keepInChatMessage',
  'pinInChatMessage',
])

const timestampOf = (value: WAMessage['messageTimestamp']) => new Date(Number(value ?? 0) * 1000 || Date.now())

/** Contacts' statuses (stories) come from this chat, the poster as participant. */
const STATUS_BROADCAST = 'status@broadcast'

/**
 * Pure: a Baileys `messages.upsert` entry → the message to record, or null for what is not a
 * message from someone else (own sends, protocol and key-distribution plumbing, broadcast
 * lists, channels). A contact's status is one, in the chat `status@broadcast`.
 */
export function toInboundMessage(message: WAMessage): InboundMessage | null {
  const key = message.key
  if (!key?.id || !key.remoteJid || key.fromMe) return null
  const status = key.remoteJid === STATUS_BROADCAST
  if (!status && (key.remoteJid.endsWith('@newsletter') || key.remoteJid.endsWith('@broadcast'))) return null
  const content = normalizeMessageContent(message.message)
  const contentType = content ? getContentType(content) : undefined
  if (!content || !contentType || PLUMBING.has(contentType)) return null

  const described = describeMessage(content)
  // The statuses' chat is shared like a group's: its jid names it, the participant the poster.
  const chat = status ? undefined : chatParty(key.remoteJid, key.remoteJidAlt)
  // Baileys gives a status poster's other jid as remoteJidAlt (participantAlt is for groups only).
  const participantAlt = status ? key.remoteJidAlt : key.participantAlt
  const participant = key.participant ? chatParty(key.participant, participantAlt) : undefined
  return {
    id: key.id,
    chatJid: key.remoteJid,
    ...(chat && !chat.group ? { phone: chat.phone, lid: chat.lid } : {}),
    ...(participant ? { participantPhone: participant.phone, participantLid: participant.lid } : {}),
    type: described.type,
    content: described.content,
    ...(described.quoteId ? { quoteId: described.quoteId } : {}),
    timestamp: timestampOf(message.messageTimestamp),
    ...(message.pushName ? { pushName: message.pushName } : {}),
    payload: proto.Message.encode(message.message!).finish(),
  }
}

/**
 * Pure: a Baileys `messages.update` entry → an edit or a revoke, or null for any other
 * update (receipt statuses are read elsewhere).
 */
export function toInboundChange(update: { key: WAMessage['key']; update: Partial<WAMessage> }): InboundChange | null {
  const { key } = update
  if (!key?.id || !key.remoteJid) return null
  const base = { id: key.id, chatJid: key.remoteJid, fromMe: Boolean(key.fromMe) }
  if (update.update.messageStubType === proto.WebMessageInfo.StubType.REVOKE) return { kind: 'revoked', ...base }
  const edited = update.update.message?.editedMessage?.message
  if (edited) {
    const normalized = normalizeMessageContent(edited)
    if (!normalized) return null
    return { kind: 'edited', ...base, content: describeMessage(normalized).content }
  }
  return null
}
