import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { lifecycleDates, timestamp } from './columns'
import { sessions } from './sessions'
import { webhookSubscriptions } from './webhook-subscriptions'

/**
 * A session's Chatwoot integration (docs/chatwoot.md): where its inbox is and how to sync. Its
 * events reach Chatwoot through the outbox stream of `subscriptionId` (a webhook_subscriptions
 * row of kind 'chatwoot', whose url is Chatwoot's base URL).
 */
export const chatwootConfigs = sqliteTable('chatwoot_configs', {
  sessionId: text('session_id')
    .primaryKey()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  subscriptionId: text('subscription_id')
    .notNull()
    .unique()
    .references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
  accountId: integer('account_id').notNull(),
  /** Chatwoot's api_access_token: sent to Chatwoot, never answered by the API (masked). */
  apiToken: text('api_token').notNull(),
  inboxId: integer('inbox_id').notNull(),
  inboxName: text('inbox_name').notNull(),
  signAgentName: integer('sign_agent_name', { mode: 'boolean' }).notNull(),
  reopenResolved: integer('reopen_resolved', { mode: 'boolean' }).notNull(),
  startPending: integer('start_pending', { mode: 'boolean' }).notNull(),
  ignoreGroups: integer('ignore_groups', { mode: 'boolean' }).notNull(),
  lastError: text('last_error'),
  lastErrorAt: timestamp('last_error_at'),
  ...lifecycleDates,
})

/**
 * One WhatsApp chat (a person by phone and/or LID, or a group) ↔ its Chatwoot contact,
 * contact-inbox (`sourceId`) and current conversation. Written before Chatwoot is asked to
 * create what a null column names, so a retry after a crash looks it up instead of creating it twice.
 */
export const chatwootChats = sqliteTable(
  'chatwoot_chats',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    /** The phone digits, the `<digits>@lid`, or the group's `…@g.us`, as first seen. */
    chatKey: text('chat_key').notNull(),
    phone: text('phone'),
    lid: text('lid'),
    contactId: integer('contact_id'),
    sourceId: text('source_id').notNull(),
    conversationId: integer('conversation_id'),
    ...lifecycleDates,
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.chatKey] }),
    index('chatwoot_chats_phone_idx').on(t.sessionId, t.phone),
    index('chatwoot_chats_lid_idx').on(t.sessionId, t.lid),
    index('chatwoot_chats_conversation_idx').on(t.sessionId, t.conversationId),
  ],
)

/** A WhatsApp message ↔ its Chatwoot message (either side may have made it). */
export const chatwootMessages = sqliteTable(
  'chatwoot_messages',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    waMessageId: text('wa_message_id').notNull(),
    /** null: Chatwoot is being asked to create it (a retry looks for it by source_id before creating it again). */
    chatwootMessageId: integer('chatwoot_message_id'),
    conversationId: integer('conversation_id').notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.waMessageId] }),
    index('chatwoot_messages_chatwoot_idx').on(t.sessionId, t.chatwootMessageId),
  ],
)

export type ChatwootConfig = typeof chatwootConfigs.$inferSelect
export type ChatwootChat = typeof chatwootChats.$inferSelect
