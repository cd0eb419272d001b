import { index, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { timestamp } from './columns'
import { workspaces } from './workspaces'

/**
 * `Idempotency-Key` of a send, per workspace, for 24 h: the same key answers the first
 * record again; the hash of the request tells a retry from a different request.
 */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    sessionId: text('session_id').notNull(),
    /** Set once the send reached WhatsApp; null while it is under way (or died with a crash). */
    messageId: text('message_id'),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.key] }),
    // Which key a record was sent under (the Chatwoot sink asks it of outbound messages).
    index('idempotency_keys_message_idx').on(t.sessionId, t.messageId),
  ],
)
