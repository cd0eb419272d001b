import { and, eq, like, not, or, type SQL } from 'drizzle-orm'
import { messages, type MessageRecord, type Session } from '../../../db/schema'
import { GatewayError } from '../../../errors'
import type { ChatAddress } from '../../../schemas/phone'
import type { ServiceContext } from '../../context'
import { findRecord } from './records'

/** Whether an API chat address names the record's chat (by phone, group id, LID or jid). */
export function isChatOf(record: MessageRecord, address: ChatAddress): boolean {
  if (record.chatJid === address.jid) return true
  if (address.kind === 'phone') return record.phone === address.digits
  // A group record's lid is its author's: a LID address names a 1:1 chat only.
  if (address.kind === 'lid')
    return record.lid !== null && !isGroupJid(record.chatJid) && address.jid === `${record.lid}@lid`
  return false
}

const isGroupJid = (jid: string) => jid.endsWith('@g.us')

/** isChatOf as a query condition, for lists of a chat's records. */
export function chatCondition(address: ChatAddress): SQL {
  if (address.kind === 'phone') return or(eq(messages.chatJid, address.jid), eq(messages.phone, address.digits))!
  if (address.kind === 'group' || address.kind === 'status' || address.kind === 'channel')
    return eq(messages.chatJid, address.jid)
  return or(
    eq(messages.chatJid, address.jid),
    and(eq(messages.lid, address.jid.split('@')[0]!), not(like(messages.chatJid, '%@g.us'))),
  )!
}

/** The columns that name a chat in a record, from an API address. */
export function chatColumns(address: ChatAddress): { chatJid: string; phone: string | null; lid: string | null } {
  if (address.kind === 'phone') return { chatJid: address.jid, phone: address.digits, lid: null }
  // A group, a channel or the statuses: the chat's jid stands for its number.
  if (address.kind === 'group' || address.kind === 'status' || address.kind === 'channel')
    return { chatJid: address.jid, phone: address.jid, lid: null }
  return { chatJid: address.jid, phone: null, lid: address.jid.split('@')[0]! }
}

/** A record of this session in the named chat; any other id is 404. */
export function findMessageInChat(
  ctx: ServiceContext,
  session: Session,
  messageId: string,
  phone: ChatAddress,
): MessageRecord {
  const record = findRecord(ctx, session.id, messageId)
  if (!record || !isChatOf(record, phone)) {
    throw new GatewayError('not_found', `No message "${messageId.slice(0, 64)}" in this chat of the session`)
  }
  return record
}

/**
 * Whether a record belongs to the chat an engine fact names (its jid, and for 1:1 chats the
 * number and LID WhatsApp revealed): a chat may be addressed by number once and by LID later.
 */
export function isSameChat(
  record: MessageRecord,
  chat: { chatJid: string; phone?: string | null; lid?: string | null },
): boolean {
  if (record.chatJid === chat.chatJid) return true
  if (isGroupJid(record.chatJid) || isGroupJid(chat.chatJid)) return false
  return Boolean((chat.phone && record.phone === chat.phone) || (chat.lid && record.lid === chat.lid))
}
