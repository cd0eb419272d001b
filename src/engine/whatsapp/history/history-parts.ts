import { isJidGroup, isLidUser, jidDecode, proto, type WAMessage } from '@whiskeysockets/baileys'
import { toInboundMessage } from '../messages/inbound-message'
import { toOwnMessage } from '../messages/own-message'
import type { HistoryChat, HistoryMessage, HistoryOwnStatus, HistoryPart } from '../port/history'

const Status = proto.WebMessageInfo.Status
const OWN_STATUS = new Map<number, HistoryOwnStatus>([
  [Status.ERROR, 'failed'],
  [Status.PENDING, 'sent'],
  [Status.SERVER_ACK, 'sent'],
  [Status.DELIVERY_ACK, 'delivered'],
  [Status.READ, 'read'],
  [Status.PLAYED, 'played'],
])

const userOf = (jid: string | null | undefined) => (jid ? jidDecode(jid)?.user : undefined)
const positive = (value: unknown) => {
  const n = Number(value ?? 0)
  return Number.isFinite(n) && n > 0 ? n : 0
}

/** Pure: what a history conversation says about its chat; undefined for what is no chat (status, newsletters). */
export function historyChat(conversation: proto.IConversation, now: Date): HistoryChat | undefined {
  const chatJid = conversation.id
  if (!chatJid || chatJid.endsWith('@broadcast') || chatJid.endsWith('@newsletter')) return undefined
  const group = isJidGroup(chatJid)
  const lid = group ? undefined : userOf(isLidUser(chatJid) ? chatJid : conversation.lidJid)
  const phone = group ? undefined : userOf(isLidUser(chatJid) ? conversation.pnJid : chatJid)
  const name = conversation.name || conversation.displayName || undefined
  const mutedUntil = positive(conversation.muteEndTime) * 1000
  return {
    chatJid,
    ...(phone ? { phone } : {}),
    ...(lid ? { lid } : {}),
    ...(name ? { name } : {}),
    unreadCount: positive(conversation.unreadCount),
    archived: Boolean(conversation.archived),
    pinned: positive(conversation.pinned) > 0,
    // A mute "forever" is a far future; a past one is no mute.
    ...(mutedUntil > now.getTime() ? { mutedUntil: new Date(Math.min(mutedUntil, 8.64e15)) } : {}),
  }
}

/**
 * Pure: a conversation's messages as records, in batches of `batchSize`, each with the chat.
 * A 1:1 message's key gets the chat's other form (number or LID) as Baileys' live messages have
 * it, so the record names both. What is not a chat message (stubs, protocol messages) is left out.
 */
export function* conversationParts(
  conversation: proto.IConversation,
  chat: HistoryChat,
  batchSize: number,
): Generator<HistoryPart> {
  const alt = isJidGroup(chat.chatJid)
    ? undefined
    : isLidUser(chat.chatJid)
      ? chat.phone && `${chat.phone}@s.whatsapp.net`
      : chat.lid && `${chat.lid}@lid`
  let batch: HistoryMessage[] = []
  let first = true
  for (const item of conversation.messages ?? []) {
    const info = item.message
    if (!info?.key) continue
    const message = historyMessage(info as WAMessage, chat.chatJid, alt)
    if (!message) continue
    batch.push(message)
    if (batch.length >= batchSize) {
      yield { kind: 'chat', chat, messages: batch }
      batch = []
      first = false
    }
  }
  if (batch.length > 0 || first) yield { kind: 'chat', chat, messages: batch }
}

function historyMessage(info: WAMessage, chatJid: string, alt: string | undefined): HistoryMessage | undefined {
  // The chat is the conversation's, whatever the key says (history keys may omit it).
  const key = { ...info.key, remoteJid: chatJid, ...(alt && !info.key.remoteJidAlt ? { remoteJidAlt: alt } : {}) }
  const message = { ...info, key }
  if (key.fromMe) {
    const own = toOwnMessage(message)
    return own
      ? { direction: 'outbound', message: own, status: OWN_STATUS.get(info.status ?? -1) ?? 'sent' }
      : undefined
  }
  const inbound = toInboundMessage(message)
  return inbound ? { direction: 'inbound', message: inbound } : undefined
}

/** Pure: a push names entry (`id`: a PN or LID jid). */
export function pushNameOf(entry: proto.IPushname): { phone?: string; lid?: string; pushName: string } | undefined {
  const user = userOf(entry.id)
  const pushName = entry.pushname?.trim()
  if (!user || !pushName || !entry.id) return undefined
  return isLidUser(entry.id) ? { lid: user, pushName } : { phone: user, pushName }
}

/** Pure: a phone number ↔ LID mapping. */
export function mappingOf(entry: proto.IPhoneNumberToLIDMapping): { phone: string; lid: string } | undefined {
  const phone = userOf(entry.pnJid)
  const lid = userOf(entry.lidJid)
  return phone && lid ? { phone, lid } : undefined
}
