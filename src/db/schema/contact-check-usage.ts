import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { workspaces } from './workspaces'

/** Contact checks counted per workspace per UTC day (`YYYY-MM-DD`). */
export const contactCheckUsage = sqliteTable(
  'contact_check_usage',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    used: integer('used').notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.day] })],
)
