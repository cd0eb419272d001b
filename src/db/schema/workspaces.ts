import { sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { planNames } from '../../plans'
import { lifecycleDates } from './columns'

export const workspaces = sqliteTable('workspaces', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  plan: text('plan', { enum: planNames }).notNull().default('free'),
  ...lifecycleDates,
})

export type Workspace = typeof workspaces.$inferSelect
