import { GatewayError } from '../../../errors'
import type { DeleteMessageInput } from '../../../schemas/message'
import type { DeleteStatusInput } from '../../../schemas/status'
import { audienceOf, isStatusRecord } from '../../status/audience'
import type { GatewayContext } from '../../context'
import { engineFailure } from '../../engine-failure'
import { connectedHandle } from '../../sessions/connected'
import { findSession } from '../../sessions/view'
import { findMessageInChat } from '../records/lookup'
import { advanceStatus } from '../records/records'

/** WhatsApp accepts "delete for everyone" for about two and a half days after sending. */
export const REVOKE_WINDOW_MS = 60 * 60 * 60 * 1000

/**
 * Deletes one of the session's own messages for everyone (a revoke). Deleting a message
 * already deleted answers success again without sending anything.
 */
export async function deleteMessage(
  ctx: GatewayContext,
  { workspaceId, input }: { workspaceId: string; input: DeleteMessageInput | DeleteStatusInput },
) {
  const session = findSession(ctx, workspaceId, input.sessionId)
  const record = findMessageInChat(ctx, session, input.messageId, input.phone)
  if (record.status === 'deleted') return { success: true, message: 'The message was already deleted' }
  // A status's revoke goes to whom it was shown: without the list, nobody would see it vanish.
  const statusAudience = isStatusRecord(record) ? audienceOf(ctx, session.id, record.id) : undefined
  const refusal =
    record.direction !== 'outbound'
      ? 'only messages sent by this session can be deleted for everyone'
      : record.status === 'failed'
        ? 'the message was never delivered'
        : ctx.clock.now().getTime() - record.createdAt.getTime() > REVOKE_WINDOW_MS
          ? 'WhatsApp’s time limit for deleting for everyone has passed'
          : isStatusRecord(record) && !statusAudience
            ? 'the status was not posted through this gateway, which does not know who saw it'
            : null
  if (refusal)
    throw new GatewayError('message_not_editable', `This message cannot be deleted: ${refusal}`, {
      messageId: record.id,
    })

  const handle = connectedHandle(ctx, session)
  try {
    await handle.revoke({ id: record.id, chatJid: record.chatJid, ...(statusAudience ? { statusAudience } : {}) })
  } catch (error) {
    throw engineFailure(error, {
      timeout: 'WhatsApp did not take the delete in time',
      upstream: 'WhatsApp refused the delete',
      not_connected: 'The session went offline; nothing was deleted',
    })
  }
  advanceStatus(ctx, session.id, record.id, { status: 'deleted', reason: 'deleted_by_client' })
  ctx.logger.info({ sessionId: session.id, messageId: record.id }, 'message deleted for everyone')
  return { success: true, message: 'Message deleted for everyone' }
}
