import type { PlanName } from '../../config'
import type { Session } from '../../db/schema'
import type { QuotedMessage } from '../../engine/whatsapp/types'
import { GatewayError, notFound } from '../../errors'
import type { ChatAddress } from '../../schemas/phone'
import type { GatewayContext } from '../context'
import { engineFailure } from '../engine-failure'
import { connectedHandle } from '../sessions/connected'
import { findSession } from '../sessions/view'
import { sendOnce } from './idempotency'
import { isInteractive, prepareMessage, type SendInput } from './prepare'
import { chatColumns, isChatOf } from './lookup'
import { advanceStatus, findRecord, insertRecord, setPayload } from './records'
import { messageView } from './view'

/** The message a reply quotes: one of this session's records in the same chat. */
function quotedMessage(ctx: GatewayContext, session: Session, chat: ChatAddress, quoteId: string): QuotedMessage {
  const record = findRecord(ctx, session.id, quoteId)
  if (!record || !isChatOf(record, chat)) {
    throw new GatewayError('not_found', `quoteId "${quoteId.slice(0, 64)}" is not a message of this chat`, { field: 'quoteId' })
  }
  return {
    id: record.id,
    chatJid: record.chatJid,
    fromMe: record.direction === 'outbound',
    ...(record.participant && record.direction === 'inbound' ? { participant: `${record.participant}@s.whatsapp.net` } : {}),
    ...(record.payload ? { payload: new Uint8Array(record.payload) } : {}),
  }
}

/**
 * Sends one message and answers its record. Order: checks (plan, session, quote), media
 * (fetch and convert: 413/422 before anything is recorded), the record as `pending`, then the
 * network. A send WhatsApp refuses leaves the record `failed` and answers 502/504.
 */
export async function sendMessage(
  ctx: GatewayContext,
  args: { workspaceId: string; plan: PlanName; input: SendInput; idempotencyKey?: string },
) {
  const { workspaceId, plan, input } = args
  const session = findSession(ctx, workspaceId, input.sessionId)
  if (isInteractive(input) && !ctx.config.plans[plan].interactiveMessages) {
    throw new GatewayError('plan_required', `Interactive ${input.kind} messages are not part of the ${plan} plan`, { feature: input.kind, plan })
  }

  const messageId = await sendOnce(ctx, { workspaceId, sessionId: session.id, key: args.idempotencyKey, request: input }, async () => {
    const handle = connectedHandle(ctx, session)
    const chat = chatColumns(input.phone)
    const quoted = input.quoteId ? quotedMessage(ctx, session, input.phone, input.quoteId) : undefined
    const prepared = await prepareMessage(ctx.media, input)

    const id = handle.newMessageId()
    const now = ctx.clock.now()
    insertRecord(ctx, {
      sessionId: session.id,
      id,
      ...chat,
      direction: 'outbound',
      type: prepared.type,
      status: 'pending',
      quoteId: input.quoteId ?? null,
      content: prepared.summary,
      createdAt: now,
      updatedAt: now,
    })
    try {
      const sent = await handle.send(chat.chatJid, prepared.content, { messageId: id, quoted })
      setPayload(ctx, session.id, id, sent.payload)
    } catch (error) {
      advanceStatus(ctx, session.id, id, { status: 'failed', reason: 'send_failed' })
      ctx.logger.warn({ err: error, sessionId: session.id, messageId: id }, 'send failed')
      throw engineFailure(error, {
        timeout: 'WhatsApp did not take the message in time; the record is marked failed',
        upstream: 'WhatsApp refused the message; the record is marked failed',
        not_connected: 'The session went offline while sending; the record is marked failed',
        // Only a group's metadata is looked up before sending: the jid names no group this account sees.
        not_found: `WhatsApp knows no group ${input.phone.jid}; the record is marked failed`,
      })
    }
    ctx.logger.info({ sessionId: session.id, messageId: id, type: prepared.type }, 'message sent')
    return id
  })

  const record = findRecord(ctx, session.id, messageId)
  if (!record) throw notFound(`Message "${messageId}"`)
  return messageView(record)
}
