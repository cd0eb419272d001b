import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { timestamp } from './columns'
import { sessions } from './sessions'
import { webhookSubscriptions } from './webhook-subscriptions'

/**
 * The transactional outbox: one row per event, written in the same transaction as the state
 * change it reports. `body` is the exact JSON delivered (so retries and replays send the same
 * bytes under the same `webhook-id`, which is `id`); `sequence` orders a session's events.
 */
export const webhookEvents = sqliteTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    sequence: integer('sequence').notNull(),
    type: text('type').notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('webhook_events_session_sequence_unique').on(t.sessionId, t.sequence),
    index('webhook_events_created_idx').on(t.createdAt),
  ],
)

export const webhookDeliveryStatuses = ['pending', 'delivered', 'failed'] as const
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number]

/**
 * One attempt series of one event (a replay or a manual retry of a failed one is a new
 * series of the same event). `position` is the queue order: the pending deliveries of a
 * session to one webhook (a stream) go out one at a time, lowest position first.
 */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    position: integer('position').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    /** The webhook it goes to; null: the session's own webhookUrl. Deleting a webhook drops its deliveries. */
    webhookId: text('webhook_id').references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
    status: text('status', { enum: webhookDeliveryStatuses }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at').notNull(),
    /** Retries stop after this moment (WEBHOOK_RETRY_HOURS after the series began). */
    retryUntil: timestamp('retry_until').notNull(),
    /** Queued by a replay (POST /v1/webhooks/replay), not when the event happened. */
    replay: integer('replay', { mode: 'boolean' }).notNull().default(false),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
  },
  (t) => [
    index('webhook_deliveries_queue_idx').on(t.status, t.sessionId, t.webhookId, t.position),
    index('webhook_deliveries_session_idx').on(t.sessionId, t.position),
    index('webhook_deliveries_updated_idx').on(t.status, t.updatedAt),
    index('webhook_deliveries_event_idx').on(t.eventId),
  ],
)

/** The last sequence number given to each session's events; survives pruning. */
export const webhookSequences = sqliteTable('webhook_sequences', {
  sessionId: text('session_id')
    .primaryKey()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  last: integer('last').notNull(),
})

/** The secret a rotation replaced: deliveries are signed with it too until `expiresAt`. */
export const webhookPreviousSecrets = sqliteTable('webhook_previous_secrets', {
  sessionId: text('session_id')
    .primaryKey()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  expiresAt: timestamp('expires_at').notNull(),
})

export type WebhookEventRow = typeof webhookEvents.$inferSelect
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect
