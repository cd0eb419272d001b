import { blob, index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { lifecycleDates, timestamp } from './columns'
import { sessions } from './sessions'

/** History-sync chunk types WhatsApp sends a linked device (HistorySync.HistorySyncType). */
export const historySyncTypes = ['initial_bootstrap', 'recent', 'full', 'push_name', 'on_demand'] as const
export type HistorySyncType = (typeof historySyncTypes)[number]

/**
 * `pending`: announced, not read yet (also after a crash mid-read: read again, duplicates are
 * one record); `done`; `cut_off`: stopped at its budget (a decompression bomb) or unreadable,
 * what was read before is kept; `expired`: WhatsApp no longer had the file.
 */
export const historyChunkStates = ['pending', 'done', 'cut_off', 'expired'] as const
export type HistoryChunkState = (typeof historyChunkStates)[number]

/**
 * The history-sync notifications a session's phone sent, one row each, written before Baileys
 * acknowledges the notification: WhatsApp then forgets it, and this row is what a restart
 * resumes from. The counts are what reading the chunk stored.
 */
export const historyChunks = sqliteTable(
  'history_chunks',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    /** The notification message's id: WhatsApp re-sending it is the same row. */
    id: text('id').notNull(),
    syncType: text('sync_type', { enum: historySyncTypes }).notNull(),
    chunkOrder: integer('chunk_order').notNull(),
    /** WhatsApp's percentage of the whole sync reached with this chunk (0–100). */
    progress: integer('progress').notNull(),
    /** proto.Message.HistorySyncNotification encoded: where the blob is and its keys; never served. */
    notification: blob('notification', { mode: 'buffer' }).notNull(),
    state: text('state', { enum: historyChunkStates }).notNull(),
    stateReason: text('state_reason'),
    chats: integer('chats').notNull().default(0),
    messages: integer('messages').notNull().default(0),
    contacts: integer('contacts').notNull().default(0),
    /** Messages left out: past maxMessages, older than the day limit, or already stored. */
    skipped: integer('skipped').notNull().default(0),
    ...lifecycleDates,
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.id] }), index('history_chunks_state_idx').on(t.state)],
)

export type HistoryChunkRow = typeof historyChunks.$inferSelect

/**
 * What WhatsApp says about a session's chats beyond their messages (from history sync): the
 * name, and whether the account archived, pinned or muted it. Keyed as the chat list keys a
 * chat (the number's digits, `<lid>@lid`, or the group jid).
 */
export const chatStates = sqliteTable(
  'chat_states',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    chat: text('chat').notNull(),
    name: text('name'),
    archived: integer('archived', { mode: 'boolean' }).notNull().default(false),
    pinned: integer('pinned', { mode: 'boolean' }).notNull().default(false),
    mutedUntil: timestamp('muted_until'),
    ...lifecycleDates,
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.chat] })],
)

export type ChatStateRow = typeof chatStates.$inferSelect
