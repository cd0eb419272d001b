import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import type { WebhookEventType } from '../../shared/event-types'
import { lifecycleDates, timestamp } from './columns'
import { sessions } from './sessions'
import { workspaces } from './workspaces'

/**
 * Webhooks besides a session's own `webhookUrl` (its primary webhook): a session's (`sessionId`
 * set) or the whole workspace's (`sessionId` null: every session's events, present and future).
 * Each has its own secret and its own delivery stream (`webhook_deliveries.webhook_id`).
 * `kind` 'chatwoot' is a session's Chatwoot integration (chatwoot_configs): the same durable,
 * ordered stream, delivered by the integration's sink instead of a signed POST; it is not one
 * of the webhooks the API lists or counts.
 */
export const webhookSubscriptions = sqliteTable(
  'webhook_subscriptions',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: ['webhook', 'chatwoot'] })
      .notNull()
      .default('webhook'),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** null: a workspace-level webhook. */
    sessionId: text('session_id').references(() => sessions.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** Whether message.* events may reach it: the plan's message webhooks when it was last saved. */
    messages: integer('messages', { mode: 'boolean' }).notNull(),
    /** The event types it gets; null: every type. */
    events: text('events', { mode: 'json' }).$type<WebhookEventType[]>(),
    description: text('description'),
    secret: text('secret').notNull(),
    /** The secret a rotation replaced: deliveries are signed with it too until the expiry. */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at'),
    ...lifecycleDates,
  },
  (t) => [index('webhook_subscriptions_scope_idx').on(t.workspaceId, t.sessionId)],
)

export type WebhookSubscription = typeof webhookSubscriptions.$inferSelect
