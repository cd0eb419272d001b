import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core'
import { commitWrites } from '../perf/group-commit'
import { startCheckpointer } from '../perf/checkpointer'
import { attachCheckpointer, checkpointerOf } from './checkpoint-stats'
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
  // A checkpoint runs inside the commit that crosses the limit, on the thread that writes. At
  // SQLite's default (1,000 pages, 4 MB) the checkpoints took about a quarter of the write time;
  // at 10,000 (a WAL of up to 40 MB) hot pages are copied once per checkpoint instead of ten
  // times (bench: inbound msg/s). With the background checkpointer this is its backstop.
  'PRAGMA wal_autocheckpoint = 10000',
  'PRAGMA foreign_keys = ON',
  'PRAGMA busy_timeout = 5000',
]

export interface OpenOptions {
  /**
   * Run WAL checkpoints on a worker thread (checkpointer.ts) rather than in the commits of the
   * event loop. On for the gateway's own process; a file database only.
   */
  checkpointInBackground?: boolean
  /** The background checkpointer stopped on an error (the backstop goes on); a process warning by default. */
  onCheckpointError?(message: string): void
}

/**
 * Opens (creating its directory) the SQLite file with the driver of the running runtime:
 * better-sqlite3 under Node, bun:sqlite under Bun, where better-sqlite3 does not load.
 */
export async function openDatabase(path: string, options: OpenOptions = {}): Promise<GatewayDatabase> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const driver = isBun() ? await import('./drivers/bun') : await import('./drivers/node')
  const db = driver.open(path)
  for (const pragma of PRAGMAS) db.$client.exec(pragma)
  if (options.checkpointInBackground && path !== ':memory:') {
    const onError =
      options.onCheckpointError ??
      ((message: string) =>
        process.emitWarning(`background WAL checkpoints stopped, commits run them again: ${message}`))
    const checkpointer = startCheckpointer(path, { driver: driver.entry(), onError })
    attachCheckpointer(db, checkpointer)
  }
  return db
}

/**
 * Commits the open group and closes. The checkpointer's connection closes first, so the main
 * one closes last and folds the WAL into the file.
 */
export function closeDatabase(db: GatewayDatabase): void {
  checkpointerOf(db)?.stop()
  commitWrites(db)
  db.$client.close()
}
