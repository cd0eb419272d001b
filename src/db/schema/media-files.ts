import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { timestamp } from './columns'

/**
 * The inbound files the media store holds, one row per message whose file was fetched and
 * checked. The store's objects are named from (session, message); this table is what the size
 * cap and the pruning read, so neither lists the store. No foreign key: a row whose message
 * record is gone (retention) is exactly what the pruning looks for, to delete its object.
 */
export const mediaFiles = sqliteTable(
  'media_files',
  {
    sessionId: text('session_id').notNull(),
    messageId: text('message_id').notNull(),
    /** Bytes stored. */
    size: integer('size').notNull(),
    storedAt: timestamp('stored_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.messageId] }), index('media_files_stored_idx').on(t.storedAt)],
)

/**
 * Secrets of the gateway itself, generated on first use and shared by every process on the
 * database (e.g. `media-url`, which signs downloadUrl). Deleting a row rotates it at the next start.
 */
export const gatewaySecrets = sqliteTable('gateway_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at').notNull(),
})

export type MediaFileRow = typeof mediaFiles.$inferSelect
