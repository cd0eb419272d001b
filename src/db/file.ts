import type { GatewayDatabase } from './database'

/**
 * The file a database lives in ('' in memory), as SQLite itself reports it. Its own module:
 * database.ts loads the drivers, which a Worker bundle must not see.
 */
export function databaseFile(db: GatewayDatabase): string {
  const main = (db.$client.prepare('PRAGMA database_list').all() as { name: string; file: string }[]).find(
    (entry) => entry.name === 'main',
  )
  return main?.file ?? ''
}
