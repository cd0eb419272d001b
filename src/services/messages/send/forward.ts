import type { MessageRecord, Session } from '../../../db/schema'
import { GatewayError } from '../../../errors'
import type { MessageContent } from '../../../shared/message-content'
import type { MessageType } from '../../../shared/message-types'
import type { SessionHandle } from '../../../engine/whatsapp/port'
import type { GatewayContext } from '../../context'
import { findRecord } from '../records/records'
import type { PreparedMessage } from './prepare'

/**
 * What WhatsApp lets a phone forward. Polls carry the secret their votes are encrypted with,
 * interactive messages and replies to them only mean something in their own chat, and an
 * unknown kind we cannot vouch for: those are refused rather than sent broken.
 */
const FORWARDABLE: ReadonlySet<MessageType> = new Set<MessageType>([
  'text',
  'image',
  'audio',
  'ptt',
  'sticker',
  'location',
  'video',
  'document',
  'contact',
])

/**
 * A recorded message of the session, made ready to send again marked as forwarded: its proto as
 * kept, so its media goes with the upload it already names. Unknown ids (another session's or
 * workspace's too) are 404; a record that cannot be forwarded is 409 saying why.
 */
export function forwardedMessage(
  ctx: GatewayContext,
  session: Session,
  messageId: string,
  handle: Pick<SessionHandle, 'forwardRefusal'>,
): PreparedMessage {
  const record = findRecord(ctx, session.id, messageId)
  if (!record) throw new GatewayError('not_found', `No message "${messageId.slice(0, 64)}" in this session`)
  // What the record says first; what only its proto says (view-once) from the engine.
  const refusal = whyNotForwardable(record) ?? handle.forwardRefusal(new Uint8Array(record.payload!))
  if (refusal)
    throw new GatewayError('message_not_editable', `This message cannot be forwarded: ${refusal}`, {
      messageId: record.id,
      status: record.status,
      type: record.type,
    })
  return {
    type: record.type as MessageType,
    content: {
      kind: 'forward',
      original: {
        id: record.id,
        chatJid: record.chatJid,
        fromMe: record.direction === 'outbound',
        payload: new Uint8Array(record.payload!),
      },
    },
    summary: forwardedSummary(record.content),
  }
}

function whyNotForwardable(record: MessageRecord): string | undefined {
  if (record.status === 'deleted') return 'it was deleted'
  if (!FORWARDABLE.has(record.type as MessageType)) return `a ${record.type} message is not forwardable`
  // An outbound record gets its proto at hand-over; before that there is nothing to send again.
  if (!record.payload) return 'the gateway keeps no copy of its content'
  return undefined
}

/**
 * What the forwarded record says: the original's summary as an outbound message states it (an
 * inbound file's type, name and size lifted out of its download summary), without what belongs
 * to the original alone (its reactions and votes, its download), marked forwarded.
 */
function forwardedSummary(content: MessageContent): MessageContent {
  const { media, reactions: _reactions, votes: _votes, ...rest } = content
  const file = media
    ? {
        mimetype: media.mimetype,
        ...(media.fileName ? { fileName: media.fileName } : {}),
        ...(media.seconds ? { seconds: media.seconds } : {}),
        ...(media.width ? { width: media.width } : {}),
        ...(media.height ? { height: media.height } : {}),
      }
    : {}
  return { ...file, ...rest, forwarded: true }
}
