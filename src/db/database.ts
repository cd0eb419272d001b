import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core'
import { isBun } from '../runtime/detect'
import type * as schema from './schema'

/** The part of a SQLite driver (better-sqlite3 or bun:sqlite) the gateway uses directly. */
export interface SqliteClient {
  prepare(sql: string): { get(...params: unknown[]): unknown; all(...params: unknown[]): unknown[] }
  exec(sql: string): unknown
  close(): void
}

/** A Drizzle database over either driver: both are synchronous SQLite. */
export type GatewayDatabase = BaseSQLiteDatabase<'sync', unknown, typeof schema> & { $client: SqliteClient }

const PRAGMAS = [
  'PRAGMA journal_mode = WAL',
  'PRAGMA synchronous = NORMAL',
  'PRAGMA foreign_keys = ON',
  'PRAGMA busy_timeout = 5000',
]

/**
 * Opens (creating its directory) the SQLite file with the driver of the running runtime:
 * better-sqlite3 under Node, bun:sqlite under Bun, where better-sqlite3 does not load.
 */
export async function openDatabase(path: string): Promise<GatewayDatabase> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const driver = isBun() ? await import('./drivers/bun') : await import('./drivers/node')
  const db = driver.open(path)
  for (const pragma of PRAGMAS) db.$client.exec(pragma)
  return db
}

export function closeDatabase(db: GatewayDatabase): void {
  db.$client.close()
}
