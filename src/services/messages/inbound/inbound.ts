import { STATUS_CHAT } from '../../../schemas/status'
import type { InboundChange, InboundMessage } from '../../../engine/whatsapp/port/messages'
import { rememberPushName } from '../../contacts/names'
import { groupWrite } from '../../../perf/group-commit'
import type { GatewayContext } from '../../context'
import { eagerHoldMs, fetchEagerly, holdsForMedia } from '../../media/eager'
import { advanceStatus, editRecord, findRecord, type NewMessageRecord, writeRecord } from '../records/records'

/**
 * Stores a message someone sent to the session, with the sender's phone and LID as resolved.
 * Synchronous: it returns before Baileys sends the receipt. With MEDIA_DOWNLOAD=eager a file is
 * fetched after that, its message.received held until it is stored (see media/eager.ts).
 */
export function recordInbound(ctx: GatewayContext, sessionId: string, message: InboundMessage): void {
  // A group, or the statuses: the chat's jid stands for its number, the author is the participant.
  const isGroup = message.chatJid.endsWith('@g.us') || message.chatJid === STATUS_CHAT
  const eager = holdsForMedia(ctx, message.content)
  const holdEventUntil = eager ? new Date(ctx.clock.now().getTime() + eagerHoldMs(ctx)) : undefined
  const record: NewMessageRecord = {
    sessionId,
    id: message.id,
    chatJid: message.chatJid,
    phone: isGroup ? message.chatJid : (message.phone ?? null),
    lid: isGroup ? (message.participantLid ?? null) : (message.lid ?? null),
    // The number when known, else the LID in its `@lid` form (never bare digits: they read as a number).
    participant: isGroup
      ? (message.participantPhone ?? (message.participantLid ? `${message.participantLid}@lid` : null))
      : null,
    direction: 'inbound',
    type: message.type,
    status: 'received',
    quoteId: message.quoteId ?? null,
    content: message.content,
    payload: Buffer.from(message.payload),
    createdAt: message.timestamp,
    updatedAt: ctx.clock.now(),
  }
  const sender = isGroup
    ? { phone: message.participantPhone, lid: message.participantLid }
    : { phone: message.phone, lid: message.lid }
  // The record, its event and the sender's push name in one write, committed with the others of
  // this turn of the loop and before the receipt goes out (perf/group-commit.ts).
  const { inserted, eventId } = groupWrite(ctx.db, () => {
    const stored = writeRecord(ctx, ctx.db, record, { holdEventUntil })
    if (message.pushName) rememberPushName(ctx, sessionId, sender, message.pushName, message.timestamp)
    return stored
  })
  if (!inserted) return
  ctx.metrics.messageReceived(message.type)
  ctx.logger.debug({ sessionId, messageId: message.id, type: message.type }, 'message received')
  if (eager) fetchEagerly(ctx, sessionId, message.id, eventId)
}

/** Someone edited or revoked a message: the record follows (own messages edited elsewhere too). */
export function applyInboundChange(ctx: GatewayContext, sessionId: string, change: InboundChange): void {
  if (!findRecord(ctx, sessionId, change.id)) return
  if (change.kind === 'revoked') {
    advanceStatus(ctx, sessionId, change.id, {
      status: 'deleted',
      reason: change.fromMe ? 'revoked' : 'revoked_by_sender',
    })
    return
  }
  editRecord(ctx, sessionId, change.id, change.content)
}
