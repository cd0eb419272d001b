import type { OwnMessage } from '../../../engine/whatsapp/port/messages'
import type { GatewayContext } from '../../context'
import { emptyTally } from './poll-tally'
import { insertRecord } from '../records/records'

/**
 * A message the account sent from WhatsApp itself (its phone, another linked device): recorded
 * as `outbound` with `source: phone`, status `sent` (WhatsApp has it), and announced by a
 * `message.status` event, so an app sees the whole conversation. A send of this gateway that
 * comes back the same way already has its record under the same id: nothing changes.
 */
export function recordOwnMessage(ctx: GatewayContext, sessionId: string, message: OwnMessage): void {
  const isGroup = message.chatJid.endsWith('@g.us')
  const inserted = insertRecord(ctx, {
    sessionId,
    id: message.id,
    chatJid: message.chatJid,
    phone: isGroup ? message.chatJid : (message.phone ?? null),
    lid: isGroup ? null : (message.lid ?? null),
    participant: null,
    direction: 'outbound',
    source: 'phone',
    type: message.type,
    status: 'sent',
    quoteId: message.quoteId ?? null,
    // A poll the account created: votes on it are counted from here on.
    content:
      message.type === 'poll'
        ? { ...message.content, votes: emptyTally(message.content.options ?? []) }
        : message.content,
    payload: Buffer.from(message.payload),
    createdAt: message.timestamp,
    updatedAt: ctx.clock.now(),
  })
  if (inserted)
    ctx.logger.debug({ sessionId, messageId: message.id, type: message.type }, 'message sent from the phone')
}
