import { normalizeMessageContent, type WAMessage } from '@whiskeysockets/baileys'
import { authorOf, chatParty, type OwnJids } from '../jid'
import { isChatMessage, timestampMs } from './message-keys'
import type { Reaction } from '../port/messages'

/** WhatsApp's reactions are one emoji: anything longer is not one, and is not stored. */
const MAX_REACTION_BYTES = 64

/**
 * Pure: a Baileys `messages.upsert` entry → a reaction, or null when it is not one (or names no
 * message). Baileys' cleanMessage has already turned the target key to the account's view
 * (`fromMe` is whether the account wrote the reacted message).
 */
export function toReaction(message: WAMessage, own: OwnJids): Reaction | null {
  const key = message.key
  if (!isChatMessage(key)) return null
  const reaction = normalizeMessageContent(message.message)?.reactionMessage
  const target = reaction?.key
  if (!reaction || !target?.id) return null
  const emoji = reaction.text ?? ''
  if (Buffer.byteLength(emoji) > MAX_REACTION_BYTES) return null
  const chat = chatParty(key.remoteJid, key.remoteJidAlt)
  const reactor = authorOf(key, own)
  return {
    id: key.id,
    chatJid: key.remoteJid,
    ...(chat.group ? {} : { phone: chat.phone, lid: chat.lid }),
    fromMe: Boolean(key.fromMe),
    ...(reactor.phone ? { reactorPhone: reactor.phone } : {}),
    ...(reactor.lid ? { reactorLid: reactor.lid } : {}),
    targetId: target.id,
    targetFromMe: Boolean(target.fromMe),
    emoji,
    timestamp: new Date(timestampMs(reaction.senderTimestampMs, message.messageTimestamp)),
  }
}
