import { type AnyColumn, sql } from 'drizzle-orm'
import { blob, index, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import type { MessageContent } from '../../shared/message-content'
import { lifecycleDates, timestamp } from './columns'
import { sessions } from './sessions'

/**
 * Delivery states in the order they happen; a record never moves back. `received` is the
 * state of inbound messages; `failed` and `deleted` end an outbound message's life.
 */
export const messageStatuses = [
  'pending',
  'sent',
  'delivered',
  'read',
  'played',
  'failed',
  'deleted',
  'received',
] as const
export type MessageStatus = (typeof messageStatuses)[number]

/**
 * The chat a record belongs to, as the chat list keys it: a group by its jid; a 1:1 chat by the
 * number when the record knows it, else by `<lid>@lid`. One expression, used verbatim by the
 * index below and by services/chats/list.ts: SQLite uses an index on an expression only for a
 * query that writes the same expression.
 */
export const chatKeyOf = (t: { chatJid: AnyColumn; phone: AnyColumn; lid: AnyColumn }) =>
  // No comma in it: drizzle-kit splits an index's expression at commas when it writes the SQL.
  sql`(CASE WHEN ${t.chatJid} GLOB '*@g.us' THEN ${t.chatJid} WHEN ${t.phone} IS NOT NULL THEN ${t.phone} WHEN ${t.lid} IS NOT NULL THEN ${t.lid} || '@lid' ELSE ${t.chatJid} END)`

/**
 * Where a record came from: sent through this gateway's API, sent from the account's own
 * WhatsApp, or imported from the phone's history at linking (either direction).
 */
export const messageSources = ['api', 'phone', 'history'] as const
export type MessageSource = (typeof messageSources)[number]

export const messages = sqliteTable(
  'messages',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    /** WhatsApp's own message id (Baileys key.id): the messageId of the API. */
    id: text('id').notNull(),
    /** The chat as WhatsApp addressed it (PN, LID or group jid). */
    chatJid: text('chat_jid').notNull(),
    /** 1:1: the other party's phone (digits); groups: the group id (`…@g.us`). */
    phone: text('phone'),
    lid: text('lid'),
    /** Groups, inbound: who wrote it (phone digits, else LID). */
    participant: text('participant'),
    direction: text('direction', { enum: ['inbound', 'outbound'] }).notNull(),
    /**
     * Outbound: where it was sent from: `phone` (the account's phone or another linked device,
     * seen by this gateway). `history` on records imported from the phone's history, inbound
     * too. Null on live inbound records, and on sends through the API, which were the only
     * outbound records before the column existed: the API shows those as `api`.
     */
    source: text('source', { enum: messageSources }),
    type: text('type').notNull(),
    status: text('status', { enum: messageStatuses }).notNull(),
    statusReason: text('status_reason'),
    quoteId: text('quote_id'),
    content: text('content', { mode: 'json' }).$type<MessageContent>().notNull(),
    /** The proto as sent or received, for quotes and Baileys' retries; never served by the API. */
    payload: blob('payload', { mode: 'buffer' }),
    editedAt: timestamp('edited_at'),
    ...lifecycleDates,
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.id] }),
    index('messages_session_created_idx').on(t.sessionId, t.createdAt),
    index('messages_created_idx').on(t.createdAt),
    // The chat list (services/chats/list.ts): one pass over a session's records grouped by chat,
    // covering the newest record's time, the unread count and the LID without reading a row.
    index('messages_chat_idx').on(t.sessionId, chatKeyOf(t), t.createdAt, t.direction, t.status, t.lid),
    // Sends still pending (never handed over, or with no server ack yet): found by the start-up
    // recovery and the ack deadline without scanning every record.
    index('messages_pending_idx').on(t.createdAt).where(sql`${t.status} = 'pending'`),
  ],
)

export type MessageRecord = typeof messages.$inferSelect
