import type { ChatAddress } from '../../schemas/phone'
import type { GatewayContext } from '../context'
import { findRecord } from '../messages/records/records'
import { notFound } from '../../errors'
import { findLabel, labelFailure, labelSession } from './access'
import { onLabelChange } from './facts'

/**
 * Puts a label on a chat or takes it off (404 for a label the session does not have). Idempotent:
 * WhatsApp takes the same association twice, and only a change writes a `label.association` event.
 */
export async function setChatLabel(
  ctx: GatewayContext,
  args: { workspaceId: string; sessionId: string; labelId: string; phone: ChatAddress; labeled: boolean },
) {
  const { session, handle } = await labelSession(ctx, args.workspaceId, args.sessionId)
  const { labelId, phone, labeled } = args
  findLabel(ctx, session.id, labelId)
  try {
    await handle.labels.setChatLabel(phone.jid, labelId, labeled)
  } catch (error) {
    throw labelFailure(error, labeled ? 'the chat’s label' : 'the chat label’s removal')
  }
  onLabelChange(ctx, session.id, { kind: 'chat', labelId, chatJid: phone.jid, labeled })
  return { sessionId: session.id, labelId, phone: phone.input, labeled }
}

/**
 * Puts a label on a message the gateway has a record of, or takes it off (404 for an unknown
 * label or message): WhatsApp names a message by its chat and id, which the record gives.
 */
export async function setMessageLabel(
  ctx: GatewayContext,
  args: { workspaceId: string; sessionId: string; labelId: string; messageId: string; labeled: boolean },
) {
  const { session, handle } = await labelSession(ctx, args.workspaceId, args.sessionId)
  const { labelId, messageId, labeled } = args
  findLabel(ctx, session.id, labelId)
  const record = findRecord(ctx, session.id, messageId)
  if (!record) throw notFound(`Message ${messageId}`)
  try {
    await handle.labels.setMessageLabel(record.chatJid, messageId, labelId, labeled)
  } catch (error) {
    throw labelFailure(error, labeled ? 'the message’s label' : 'the message label’s removal')
  }
  onLabelChange(ctx, session.id, { kind: 'message', labelId, chatJid: record.chatJid, messageId, labeled })
  return { sessionId: session.id, labelId, messageId, labeled }
}
