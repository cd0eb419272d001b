import type { MessageRecord } from '../db/schema'
import type { MessageType } from '../engine/whatsapp/message-content'

/** The fields every `message.*` event carries, from the record as it stands in the transaction. */
export function messageEventBase(record: MessageRecord) {
  return {
    messageId: record.id,
    direction: record.direction,
    phone: record.phone,
    lid: record.lid,
    participant: record.participant,
    type: record.type as MessageType,
    content: record.content,
    quoteId: record.quoteId,
  }
}
