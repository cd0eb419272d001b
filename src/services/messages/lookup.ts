import type { MessageRecord, Session } from '../../db/schema'
import { toChatJid } from '../../engine/whatsapp/jid'
import { GatewayError } from '../../errors'
import type { ServiceContext } from '../context'
import { findRecord } from './records'

/** Whether an API chat address names the record's chat (by phone, group id, LID or jid). */
export function isChatOf(record: MessageRecord, address: string): boolean {
  return (
    record.phone === address ||
    record.chatJid === toChatJid(address) ||
    (record.lid !== null && address === `${record.lid}@lid`)
  )
}

/** A record of this session in the named chat; any other id is 404. */
export function findMessageInChat(ctx: ServiceContext, session: Session, messageId: string, phone: string): MessageRecord {
  const record = findRecord(ctx.db, session.id, messageId)
  if (!record || !isChatOf(record, phone)) {
    throw new GatewayError('not_found', `No message "${messageId.slice(0, 64)}" in this chat of the session`)
  }
  return record
}
