import { and, desc, eq, inArray, sql } from 'drizzle-orm'
import { chatStates, messages } from '../../db/schema'
import type { HistoryChat, HistoryMessage, HistoryPart } from '../../engine/whatsapp/port/history'
import type { GatewayDatabase } from '../../db/database'
import { prepared } from '../../perf/prepared'
import { type Party, rememberPushName } from '../contacts/names'
import type { ServiceContext } from '../context'

type NewMessageRecordRow = typeof messages.$inferInsert

const p = (name: keyof NewMessageRecordRow) => sql.placeholder(name)
/** A history record, once: a message already recorded (live, or in a chunk sent twice) is left as it is. */
const insertHistoryRecord = (db: GatewayDatabase) =>
  db
    .insert(messages)
    .values({
      sessionId: p('sessionId'),
      id: p('id'),
      chatJid: p('chatJid'),
      phone: p('phone'),
      lid: p('lid'),
      participant: p('participant'),
      direction: p('direction'),
      source: p('source'),
      type: p('type'),
      status: p('status'),
      quoteId: p('quoteId'),
      content: p('content'),
      payload: p('payload'),
      createdAt: p('createdAt'),
      updatedAt: p('updatedAt'),
    })
    .onConflictDoNothing()
    .returning({ id: messages.id })
    .prepare()

/** What a chunk stored so far, and what it may still store. */
export interface ChunkTally {
  chats: Set<string>
  messages: number
  contacts: number
  skipped: number
  /** Messages the session may still store (its maxMessages less what earlier chunks stored). */
  room: number
  /** Messages sent before this are older than the days asked for. */
  since: Date
  /** Chats with unread messages, marked once the chunk is written (markUnreadChats). */
  unread: Map<string, HistoryChat>
}

/** The chat list's key of a chat (services/chats/list.ts): the group jid, the number, else `<lid>@lid`. */
export const chatKey = (chat: HistoryChat): string =>
  chat.chatJid.endsWith('@g.us') ? chat.chatJid : (chat.phone ?? (chat.lid ? `${chat.lid}@lid` : chat.chatJid))

/**
 * One part of a chunk, written in one transaction: the chat's state, its messages (a record each,
 * `source: history`, no event: the chunk's history.progress reports them), the push names.
 * A message already recorded (live, or by a chunk WhatsApp sent again) is left as it is.
 */
export function writeHistoryPart(ctx: ServiceContext, sessionId: string, part: HistoryPart, tally: ChunkTally): void {
  ctx.db.transaction(
    () => {
      if (part.kind === 'push-names') {
        for (const { pushName, ...party } of part.names) rememberPushName(ctx, sessionId, party, pushName, new Date(0))
        tally.contacts += part.names.length
        return
      }
      writeChat(ctx, sessionId, part.chat, tally)
      writeMessages(ctx, sessionId, part.chat, part.messages, tally)
    },
    { behavior: 'immediate' },
  )
}

function writeChat(ctx: ServiceContext, sessionId: string, chat: HistoryChat, tally: ChunkTally): void {
  const key = chatKey(chat)
  if (tally.chats.has(key)) return
  tally.chats.add(key)
  const now = ctx.clock.now()
  const state = {
    name: chat.name ?? null,
    archived: chat.archived,
    pinned: chat.pinned,
    mutedUntil: chat.mutedUntil ?? null,
  }
  ctx.db
    .insert(chatStates)
    .values({ sessionId, chat: key, ...state, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [chatStates.sessionId, chatStates.chat],
      set: { ...state, name: sql`coalesce(excluded.name, ${chatStates.name})`, updatedAt: now },
    })
    .run()
}

function writeMessages(
  ctx: ServiceContext,
  sessionId: string,
  chat: HistoryChat,
  batch: HistoryMessage[],
  tally: ChunkTally,
): void {
  const now = ctx.clock.now()
  // The newest push name of each sender in the batch: one write per person, not per message.
  const names = new Map<string, { party: Party; pushName: string; at: Date }>()
  const insert = prepared(ctx, insertHistoryRecord)
  for (const entry of batch) {
    if (entry.message.timestamp < tally.since || tally.room <= 0) {
      tally.skipped++
      continue
    }
    // One prepared statement per record: no SQL built per batch (bench: history import msg/s).
    if (insert.get(recordOf(sessionId, entry, now))) {
      tally.messages++
      tally.room--
    } else tally.skipped++
    const pushName = entry.direction === 'inbound' ? entry.message.pushName : undefined
    if (entry.direction === 'inbound' && pushName) {
      const { message } = entry
      const party = message.chatJid.endsWith('@g.us')
        ? { phone: message.participantPhone, lid: message.participantLid }
        : { phone: message.phone, lid: message.lid }
      const key = party.phone ?? party.lid ?? ''
      const known = names.get(key)
      if (!known || known.at <= message.timestamp) names.set(key, { party, pushName, at: message.timestamp })
    }
  }
  for (const { party, pushName, at } of names.values()) rememberPushName(ctx, sessionId, party, pushName, at)
  if (chat.unreadCount > 0) tally.unread.set(chatKey(chat), chat)
}

function recordOf(sessionId: string, entry: HistoryMessage, now: Date): NewMessageRecordRow {
  const { message } = entry
  const group = message.chatJid.endsWith('@g.us')
  const base = {
    sessionId,
    id: message.id,
    chatJid: message.chatJid,
    phone: group ? message.chatJid : (message.phone ?? null),
    source: 'history' as const,
    type: message.type,
    quoteId: message.quoteId ?? null,
    content: message.content,
    payload: Buffer.from(message.payload),
    createdAt: message.timestamp,
    updatedAt: now,
  }
  if (entry.direction === 'outbound')
    return {
      ...base,
      lid: group ? null : (message.lid ?? null),
      participant: null,
      direction: 'outbound',
      status: entry.status,
    }
  const inbound = entry.message
  return {
    ...base,
    lid: group ? (inbound.participantLid ?? null) : (inbound.lid ?? null),
    participant: group
      ? (inbound.participantPhone ?? (inbound.participantLid ? `${inbound.participantLid}@lid` : null))
      : null,
    direction: 'inbound',
    // Read on the phone, unless among the chat's unread ones (markUnread).
    status: 'read',
  }
}

/**
 * Each chat's newest `unreadCount` history messages from others are unread (`received`), as the
 * phone shows them; run after each chunk, so whichever chunk holds the newest ones sets it.
 */
export function markUnreadChats(ctx: ServiceContext, sessionId: string, tally: ChunkTally): void {
  ctx.db.transaction(
    () => {
      for (const chat of tally.unread.values()) markUnread(ctx, sessionId, chat)
    },
    { behavior: 'immediate' },
  )
}

function markUnread(ctx: ServiceContext, sessionId: string, chat: HistoryChat): void {
  const jids = [chat.chatJid, chat.phone && `${chat.phone}@s.whatsapp.net`, chat.lid && `${chat.lid}@lid`].filter(
    (jid): jid is string => Boolean(jid),
  )
  const newest = ctx.db
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.sessionId, sessionId),
        inArray(messages.chatJid, jids),
        eq(messages.direction, 'inbound'),
        eq(messages.source, 'history'),
      ),
    )
    .orderBy(desc(messages.createdAt))
    .limit(chat.unreadCount)
    .all()
    .map((row) => row.id)
  if (newest.length === 0) return
  ctx.db
    .update(messages)
    .set({ status: 'received' })
    .where(
      and(
        eq(messages.sessionId, sessionId),
        inArray(messages.id, newest),
        eq(messages.source, 'history'),
        eq(messages.status, 'read'),
      ),
    )
    .run()
}
