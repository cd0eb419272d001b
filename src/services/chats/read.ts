import { and, count, desc, eq } from 'drizzle-orm'
import { messages, type MessageRecord } from '../../db/schema'
import type { ReceivedMessageRef } from '../../engine/whatsapp/port'
import { GatewayError } from '../../errors'
import { MAX_READ_BATCH, type ChatReadInput } from '../../schemas/chat'
import type { GatewayContext } from '../context'
import { engineFailure } from '../engine-failure'
import { chatCondition, isChatOf } from '../messages/records/lookup'
import { advanceStatuses, findRecord } from '../messages/records/records'
import { connectedHandle } from '../sessions/connected'
import { findSession } from '../sessions/view'

/**
 * Marks a chat's inbound messages read: the named ones, or every unread one (the newest
 * MAX_READ_BATCH). Order: find them (an id that is not an inbound message of this chat is 404
 * and nothing is sent), send the receipts, then mark the records `read` with their
 * `message.status` events in one transaction. Receipts WhatsApp took are never taken back: a
 * retry after a failure sends them again, which WhatsApp ignores.
 */
export async function markChatRead(
  ctx: GatewayContext,
  { workspaceId, input }: { workspaceId: string; input: ChatReadInput },
) {
  const session = findSession(ctx, workspaceId, input.sessionId)
  const records = input.messageIds
    ? namedMessages(ctx, session.id, input)
    : unreadMessages(ctx, session.id, input, MAX_READ_BATCH)
  const answer = (ids: string[]) => ({
    sessionId: session.id,
    phone: input.phone.input,
    messageIds: ids,
    remaining: unreadCount(ctx, session.id, input),
  })
  const handle = connectedHandle(ctx, session)
  if (records.length === 0) return answer([])
  try {
    await handle.markRead(records.map(receiptTarget))
  } catch (error) {
    throw engineFailure(error, {
      timeout: 'WhatsApp did not answer; no message was marked read',
      upstream: 'WhatsApp refused the read receipts; no message was marked read',
      not_connected: 'The session went offline; no message was marked read',
    })
  }
  advanceStatuses(
    ctx,
    session.id,
    records.map((record) => record.id),
    { status: 'read' },
  )
  ctx.logger.info({ sessionId: session.id, count: records.length }, 'chat marked read')
  return answer(records.map((record) => record.id))
}

/** Each id must be an inbound message of this chat of this session; the rest is one 404. */
function namedMessages(ctx: GatewayContext, sessionId: string, input: ChatReadInput): MessageRecord[] {
  const ids = [...new Set(input.messageIds)]
  const found = ids.map((id) => findRecord(ctx, sessionId, id))
  const missing = ids.filter((_, i) => {
    const record = found[i]
    return record?.direction !== 'inbound' || !isChatOf(record, input.phone)
  })
  if (missing.length > 0) {
    throw new GatewayError(
      'not_found',
      `${missing.length === 1 ? 'A message id is' : `${missing.length} message ids are`} not inbound messages of this chat of the session; nothing was marked read`,
      { messageIds: missing.slice(0, 10).map((id) => id.slice(0, 64)) },
    )
  }
  return found as MessageRecord[]
}

const unreadOf = (sessionId: string, input: ChatReadInput) =>
  and(
    eq(messages.sessionId, sessionId),
    eq(messages.direction, 'inbound'),
    eq(messages.status, 'received'),
    chatCondition(input.phone),
  )

function unreadMessages(ctx: GatewayContext, sessionId: string, input: ChatReadInput, limit: number): MessageRecord[] {
  return ctx.db
    .select()
    .from(messages)
    .where(unreadOf(sessionId, input))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(limit)
    .all()
}

function unreadCount(ctx: GatewayContext, sessionId: string, input: ChatReadInput): number {
  return ctx.db.select({ n: count() }).from(messages).where(unreadOf(sessionId, input)).get()?.n ?? 0
}

/** The receipt names the chat as WhatsApp addressed it and, in a group, the author (by LID when known). */
function receiptTarget(record: MessageRecord): ReceivedMessageRef {
  const participant = record.participant
  // lid is stored as digits; participant is the number's digits, or already a `…@lid`.
  const author = record.lid
    ? `${record.lid}@lid`
    : participant
      ? participant.includes('@')
        ? participant
        : `${participant}@s.whatsapp.net`
      : undefined
  return {
    id: record.id,
    chatJid: record.chatJid,
    ...(record.chatJid.endsWith('@g.us') && author ? { participant: author } : {}),
  }
}
