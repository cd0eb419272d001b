import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * Per workspace, a number that grows whenever one of its sessions is created, changed or
 * deleted: triggers on `sessions` (migration 0006) bump it in the same transaction as the
 * change, whichever process made it. A gateway keeps each workspace's session list in memory
 * and reads only this number per list request.
 */
export const sessionListVersions = sqliteTable('session_list_versions', {
  // No foreign key: the triggers also fire while a workspace's deletion cascades to its
  // sessions, when the workspace row may already be gone. A leftover row is a few bytes.
  workspaceId: text('workspace_id').primaryKey(),
  version: integer('version').notNull().default(0),
})
