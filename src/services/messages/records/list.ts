import { and, desc, eq, isNull, lt, ne, or, type SQL } from 'drizzle-orm'
import { messages } from '../../../db/schema'
import { notFound } from '../../../errors'
import type { ListMessagesInput } from '../../../schemas/message'
import type { ServiceContext } from '../../context'
import { findSession } from '../../sessions/view'
import { decodeCursor, encodeCursor } from '../../keyset-cursor'
import { chatCondition } from './lookup'
import { findRecord } from './records'
import { messageView } from './view'

/** Where records came from, as the list filters them (an API send's source is null in older records). */
function sourceCondition(source: NonNullable<ListMessagesInput['source']>): SQL | undefined {
  if (source === 'live') return or(isNull(messages.source), ne(messages.source, 'history'))
  if (source === 'api')
    return and(eq(messages.direction, 'outbound'), or(isNull(messages.source), eq(messages.source, 'api')))
  return eq(messages.source, source)
}

/** A session's records, newest first, a page at a time (keyset pagination on createdAt, id). */
export function listMessages(
  ctx: ServiceContext,
  { workspaceId, input }: { workspaceId: string; input: ListMessagesInput },
) {
  const session = findSession(ctx, workspaceId, input.sessionId)
  const filters: (SQL | undefined)[] = [eq(messages.sessionId, session.id)]
  if (input.phone) filters.push(chatCondition(input.phone))
  if (input.direction) filters.push(eq(messages.direction, input.direction))
  if (input.source) filters.push(sourceCondition(input.source))
  if (input.cursor) {
    const cursor = decodeCursor(input.cursor)
    const at = new Date(cursor.at)
    filters.push(or(lt(messages.createdAt, at), and(eq(messages.createdAt, at), lt(messages.id, cursor.key))))
  }
  const rows = ctx.db
    .select()
    .from(messages)
    .where(and(...filters))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(input.limit + 1)
    .all()
  const page = rows.slice(0, input.limit)
  const last = page.at(-1)
  return {
    messages: page.map(messageView),
    nextCursor: rows.length > input.limit && last ? encodeCursor({ at: last.createdAt.getTime(), key: last.id }) : null,
  }
}

export function getMessage(
  ctx: ServiceContext,
  { workspaceId, sessionId, messageId }: { workspaceId: string; sessionId: string; messageId: string },
) {
  const session = findSession(ctx, workspaceId, sessionId)
  const record = findRecord(ctx, session.id, messageId)
  if (!record) throw notFound(`Message "${messageId.slice(0, 64)}"`)
  return messageView(record)
}
