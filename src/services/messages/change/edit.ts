import type { MessageRecord } from '../../../db/schema'
import { GatewayError, notFound } from '../../../errors'
import type { EditMessageInput } from '../../../schemas/message'
import type { GatewayContext } from '../../context'
import { engineFailure } from '../../engine-failure'
import { connectedHandle } from '../../sessions/connected'
import { findSession } from '../../sessions/view'
import { findMessageInChat } from '../records/lookup'
import { editRecord } from '../records/records'
import { messageView } from '../records/view'

/** WhatsApp lets the sender edit a message for 15 minutes. */
export const EDIT_WINDOW_MS = 15 * 60 * 1000

/** Why a record cannot be edited now, or null when it can. */
export function editRefusal(record: MessageRecord, now: Date): string | null {
  if (record.direction !== 'outbound') return 'only messages sent by this session can be edited'
  if (record.type !== 'text') return `only text messages can be edited (this one is ${record.type})`
  if (record.status === 'failed' || record.status === 'deleted') return `the message is ${record.status}`
  if (now.getTime() - record.createdAt.getTime() > EDIT_WINDOW_MS) return 'WhatsApp’s 15-minute edit window has passed'
  return null
}

/** Edits one of the session's own text messages; answers the original record with its new text. */
export async function editMessage(
  ctx: GatewayContext,
  { workspaceId, input }: { workspaceId: string; input: EditMessageInput },
) {
  const session = findSession(ctx, workspaceId, input.sessionId)
  const record = findMessageInChat(ctx, session, input.messageId, input.phone)
  const now = ctx.clock.now()
  const refusal = editRefusal(record, now)
  if (refusal)
    throw new GatewayError('message_not_editable', `This message cannot be edited: ${refusal}`, {
      messageId: record.id,
      status: record.status,
    })

  const handle = connectedHandle(ctx, session)
  try {
    await handle.edit({ id: record.id, chatJid: record.chatJid }, input.newMessage)
  } catch (error) {
    throw engineFailure(error, {
      timeout: 'WhatsApp did not take the edit in time',
      upstream: 'WhatsApp refused the edit',
      not_connected: 'The session went offline; nothing was changed',
    })
  }
  const updated = editRecord(ctx, session.id, record.id, { ...record.content, text: input.newMessage })
  if (!updated) throw notFound(`Message "${record.id}"`)
  ctx.logger.info({ sessionId: session.id, messageId: record.id }, 'message edited')
  return messageView(updated)
}
