import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { lifecycleDates, timestamp } from './columns'
import { sessions } from './sessions'

/**
 * A session's WhatsApp Business labels, as app-state sync last reported them (the phone's
 * changes and the gateway's own arrive the same way: services/labels/facts.ts). Emptied when
 * the session stops being linked.
 */
export const labels = sqliteTable(
  'labels',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    /** WhatsApp's label id, a short number as a string: the API's labelId. */
    id: text('id').notNull(),
    name: text('name').notNull(),
    /** An index into WhatsApp's palette of 20 (0–19). */
    color: integer('color').notNull(),
    /** One of WhatsApp's predefined labels (New customer, …), when it is one. */
    predefinedId: text('predefined_id'),
    ...lifecycleDates,
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.id] })],
)

/**
 * Which chats carry which label. No foreign key to labels: sync may report an association before
 * its label; a label's deletion removes its associations, and views join on labels.
 */
export const labelChats = sqliteTable(
  'label_chats',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    labelId: text('label_id').notNull(),
    /** The chat as the chat list keys it: a number's digits, `<lid>@lid`, or a group's jid. */
    chat: text('chat').notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.labelId, t.chat] }),
    // The chat list reads the labels of a page of chats.
    index('label_chats_chat_idx').on(t.sessionId, t.chat),
  ],
)

/** Which messages carry which label (same rules as label_chats). */
export const labelMessages = sqliteTable(
  'label_messages',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    labelId: text('label_id').notNull(),
    /** WhatsApp's message id: the API's messageId. */
    messageId: text('message_id').notNull(),
    /** The chat as WhatsApp named it in the association (a jid). */
    chatJid: text('chat_jid').notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.labelId, t.chatJid, t.messageId] })],
)
