import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { timestamp } from './columns'
import { workspaces } from './workspaces'

/** API keys are stored only as a SHA-256 hash; the prefix is kept so operators can tell keys apart. */
export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    hash: text('hash').notNull().unique(),
    prefix: text('prefix').notNull(),
    createdAt: timestamp('created_at').notNull(),
    lastUsedAt: timestamp('last_used_at'),
    revokedAt: timestamp('revoked_at'),
  },
  (t) => [index('api_keys_workspace_idx').on(t.workspaceId)],
)

export type ApiKey = typeof apiKeys.$inferSelect
