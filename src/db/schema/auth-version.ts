import { integer, sqliteTable } from 'drizzle-orm/sqlite-core'

/**
 * One row whose `version` grows whenever a credential may have stopped being valid: triggers
 * (migration 0005) bump it when an API key is revoked or deleted and when a workspace changes
 * or goes. A gateway caches key → workspace in memory and reads only this number per request,
 * so a revocation by any process (the CLI, another gateway) takes effect on the next request.
 */
export const authVersion = sqliteTable('auth_version', {
  id: integer('id').primaryKey(),
  version: integer('version').notNull().default(0),
})
