import type { MessageRecord } from '../../../db/schema'
import type { MessageType } from '../../../shared/message-types'
import type { MessageView } from '../../../schemas/message-record'

/**
 * A message record as the API shows it; the stored proto payload never leaves the database.
 * A LID is shown as `<digits>@lid` (stored as digits): the one form the API uses everywhere, and
 * what a send's `phone` takes.
 */
export function messageView(record: MessageRecord): MessageView {
  return {
    messageId: record.id,
    sessionId: record.sessionId,
    phone: record.phone,
    lid: record.lid === null ? null : `${record.lid}@lid`,
    participant: record.participant,
    direction: record.direction,
    // Before the column existed every outbound record was an API send: null reads as `api`.
    source: record.source === 'history' ? 'history' : record.direction === 'outbound' ? (record.source ?? 'api') : null,
    type: record.type as MessageType,
    status: record.status,
    statusReason: record.statusReason,
    quoteId: record.quoteId,
    content: record.content,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
    editedAt: record.editedAt ? record.editedAt.toISOString() : null,
  }
}

/** The fields every `message.*` webhook event carries: the view without its session and dates. */
export function messageEventBase(record: MessageRecord) {
  const { messageId, direction, source, phone, lid, participant, type, content, quoteId } = messageView(record)
  return { messageId, direction, source, phone, lid, participant, type, content, quoteId }
}
