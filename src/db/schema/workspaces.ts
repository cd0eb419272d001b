import { sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { lifecycleDates } from './columns'

export const workspaces = sqliteTable('workspaces', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  plan: text('plan', { enum: ['free', 'paid'] }).notNull().default('free'),
  ...lifecycleDates,
})

export type Workspace = typeof workspaces.$inferSelect
