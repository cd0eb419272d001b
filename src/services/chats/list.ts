import { and, eq, inArray, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/sqlite-core'
import { chatKeyOf, chatStates, contactNames, groups, labelChats, labels, messages } from '../../db/schema'
import type { ChatSummary, ListChatsInput } from '../../schemas/chat'
import { STATUS_CHAT } from '../../schemas/status'
import { pushNamesOf } from '../contacts/names'
import type { ServiceContext } from '../context'
import { decodeCursor, encodeCursor, type KeysetCursor } from '../keyset-cursor'
import { messageView } from '../messages/records/view'
import { findSession } from '../sessions/view'

/** One chat of a page, as the query answers it. */
interface ChatRow {
  chat: string
  at: number
  unread: number
  /** Digits, 1:1 chats only. */
  lid: string | null
  newest: number
}

/**
 * The session's chats, newest first, a page at a time: the gateway's own records, so an offline
 * session lists too. A chat is keyed as messages_chat_idx keys a record (chatKeyOf); a 1:1 chat
 * recorded under its LID alone is merged into its number's when the gateway knows that LID's
 * number (another record of the chat, or a push name, named both). Five queries whatever the
 * data: the page, its newest records, the push names, the group subjects, the chat states, and
 * the chats' labels (a sixth).
 */
export function listChats(ctx: ServiceContext, { workspaceId, input }: { workspaceId: string; input: ListChatsInput }) {
  const session = findSession(ctx, workspaceId, input.sessionId)
  const cursor = input.cursor ? decodeCursor(input.cursor) : undefined
  // One read transaction: the page and its records are one snapshot (a prune may run between).
  return ctx.db.transaction(
    (tx) => {
      const rows = tx.all<ChatRow>(chatPageQuery(session.id, input.limit + 1, cursor))
      const page = rows.slice(0, input.limit)
      const records = new Map(
        page.length === 0
          ? []
          : tx
              .select({ rowid: sql<number>`${messages}.rowid`, record: messages })
              .from(messages)
              .where(
                inArray(
                  sql`${messages}.rowid`,
                  page.map((row) => row.newest),
                ),
              )
              .all()
              .map(({ rowid, record }) => [rowid, record]),
      )
      const parties = page.map((row) => (isGroup(row.chat) ? {} : { phone: phoneOf(row.chat), lid: row.lid }))
      const names = pushNamesOf(tx, session.id, parties)
      const groupIds = page.filter((row) => isGroup(row.chat)).map((row) => row.chat)
      const subjects = new Map(
        groupIds.length === 0
          ? []
          : tx
              .select({ id: groups.id, subject: groups.subject })
              .from(groups)
              .where(and(eq(groups.sessionId, session.id), inArray(groups.id, groupIds)))
              .all()
              .map(({ id, subject }) => [id, subject]),
      )
      const states = new Map(
        page.length === 0
          ? []
          : tx
              .select()
              .from(chatStates)
              .where(
                and(
                  eq(chatStates.sessionId, session.id),
                  inArray(
                    chatStates.chat,
                    page.map((row) => row.chat),
                  ),
                ),
              )
              .all()
              .map((state) => [state.chat, state]),
      )
      const chatLabels = labelsOf(tx, session.id, page)
      const chats: ChatSummary[] = page.map((row, i) => {
        const record = records.get(row.newest)
        // The page and its records are read in one transaction: the newest record is there.
        if (!record) throw new Error(`chat list: newest record of a chat vanished (rowid ${row.newest})`)
        const group = isGroup(row.chat)
        const state = states.get(row.chat)
        const mutedUntil = state?.mutedUntil && state.mutedUntil > ctx.clock.now() ? state.mutedUntil : null
        return {
          chat: row.chat,
          phone: group ? null : (phoneOf(row.chat) ?? null),
          lid: !group && row.lid ? `${row.lid}@lid` : null,
          isGroup: group,
          name: (group ? subjects.get(row.chat) : names[i]) ?? state?.name ?? null,
          archived: state?.archived ?? false,
          pinned: state?.pinned ?? false,
          mutedUntil: mutedUntil ? mutedUntil.toISOString() : null,
          unreadCount: row.unread,
          lastMessageAt: new Date(row.at).toISOString(),
          lastMessage: messageView(record),
          labels: chatLabels(row),
        }
      })
      const last = page.at(-1)
      return {
        chats,
        nextCursor: rows.length > input.limit && last ? encodeCursor({ at: last.at, key: last.chat }) : null,
      }
    },
    { behavior: 'deferred' },
  )
}

/**
 * The labels of a page's chats, one query: a label put on a 1:1 chat by its LID (as the phone may
 * name it) counts for the chat keyed by its number too.
 */
function labelsOf(tx: Pick<ServiceContext['db'], 'select'>, sessionId: string, page: ChatRow[]) {
  const keys = page.flatMap((row) => (row.lid && !isGroup(row.chat) ? [row.chat, `${row.lid}@lid`] : [row.chat]))
  const rows =
    keys.length === 0
      ? []
      : tx
          .select({ chat: labelChats.chat, id: labels.id, name: labels.name, color: labels.color })
          .from(labelChats)
          .innerJoin(labels, and(eq(labels.sessionId, labelChats.sessionId), eq(labels.id, labelChats.labelId)))
          .where(and(eq(labelChats.sessionId, sessionId), inArray(labelChats.chat, keys)))
          .orderBy(labels.createdAt)
          .all()
  return (row: ChatRow) => {
    const own = new Set(row.lid && !isGroup(row.chat) ? [row.chat, `${row.lid}@lid`] : [row.chat])
    const seen = new Set<string>()
    return rows
      .filter((label) => own.has(label.chat) && !seen.has(label.id) && seen.add(label.id))
      .map(({ id, name, color }) => ({ id, name, color }))
  }
}

const isGroup = (chat: string) => chat.endsWith('@g.us')
/** A 1:1 chat's key is the number (digits) when known, else `<lid>@lid`. */
const phoneOf = (chat: string) => (chat.includes('@') ? undefined : chat)

/**
 * The page's chats, with each one's newest record's rowid, in one statement (exported for the
 * bench, which prints its query plan):
 * - `per_key`: one pass over messages_chat_idx (session, chat key, time, direction, status, lid)
 *   grouped by key, reading no row of the table: the keys come from a subquery ordered by the
 *   index (a key selected beside max() would make SQLite read each row for its columns);
 * - `merged`: a key `<lid>@lid` whose number is known (a number-keyed chat with that LID, else
 *   a push name with both) becomes that number; a `<digits>@s.whatsapp.net` key (a record that
 *   named neither form) becomes the digits;
 * - `chats`: statuses (`status@broadcast`) are left out: WhatsApp shows them apart from chats
 *   (GET /v1/message/all lists their records);
 * - the page: chats ordered by their newest record, then by key (keyset pagination); the newest
 *   record found by a seek on (session, key, time) for each chat of the page only (INDEXED BY:
 *   without ANALYZE, SQLite may take (session, time), which a busy second makes a scan). Inbound
 *   records are timed in WhatsApp's whole seconds, so ties are common: the one recorded last
 *   (the highest rowid) is the newest.
 */
export function chatPageQuery(sessionId: string, limit: number, cursor: KeysetCursor | undefined) {
  const m = messages
  const newest = alias(messages, 'newest')
  const after = cursor ? sql`WHERE at < ${cursor.at} OR (at = ${cursor.at} AND chat < ${cursor.key})` : sql``
  return sql`
    WITH per_key AS (
      SELECT k, max(at) AS at, sum(unread) AS unread,
        CASE WHEN k GLOB '*@g.us' THEN NULL ELSE max(lid) END AS lid
      FROM (
        SELECT ${chatKeyOf(m)} AS k, ${m.createdAt} AS at,
          ${m.direction} = 'inbound' AND ${m.status} = 'received' AS unread, ${m.lid} AS lid
        FROM ${m} WHERE ${m.sessionId} = ${sessionId} ORDER BY 1
      )
      GROUP BY k
    ),
    merged AS (
      SELECT k, at, unread, lid,
        CASE
          WHEN k GLOB '*@lid' THEN coalesce(
            (SELECT p.k FROM per_key p WHERE p.lid = per_key.lid AND p.k NOT GLOB '*@*' LIMIT 1),
            (SELECT ${contactNames.phone} FROM ${contactNames}
              WHERE ${contactNames.sessionId} = ${sessionId} AND ${contactNames.lid} = per_key.lid
                AND ${contactNames.phone} IS NOT NULL LIMIT 1),
            k)
          WHEN k GLOB '*@s.whatsapp.net' THEN substr(k, 1, instr(k, '@') - 1)
          ELSE k
        END AS chat
      FROM per_key
    ),
    chats AS (
      SELECT chat, max(at) AS at, sum(unread) AS unread, max(lid) AS lid, json_group_array(k) AS keys
      FROM merged WHERE chat <> ${STATUS_CHAT} GROUP BY chat
    ),
    page AS (
      SELECT chat, at, unread, lid, keys FROM chats ${after} ORDER BY at DESC, chat DESC LIMIT ${limit}
    )
    SELECT chat, at, unread, lid, (
      SELECT newest.rowid FROM ${m} AS newest INDEXED BY messages_chat_idx
      WHERE ${newest.sessionId} = ${sessionId}
        AND ${chatKeyOf(newest)} IN (SELECT value FROM json_each(page.keys))
        AND ${newest.createdAt} = page.at
      ORDER BY newest.rowid DESC LIMIT 1
    ) AS newest
    FROM page ORDER BY at DESC, chat DESC`
}
