import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { isBun } from '../runtime/detect'
import type { SqliteClient } from './database'

/** A gateway process's hold on its database file; released by release() or by the process's end, however it ends. */
export interface DatabaseLock {
  /** The lock file, `<database>.lock`. */
  readonly path: string
  release(): void
}

/** Another live gateway holds the file: the operator's to sort out, said in one line. */
export class DatabaseInUseError extends Error {
  override readonly name = 'DatabaseInUseError'
}

export const lockFileOf = (databasePath: string) => `${databasePath}.lock`

/**
 * Takes the database file for this process, before anything reads or writes it: start-up
 * recovery (sends never handed over marked failed, their keys released) and the reconnection of
 * every session assume no other gateway runs on the file. The hold is an exclusive transaction
 * kept open on a small SQLite file beside it (`<database>.lock`, empty, left in place): SQLite
 * takes it as an OS lock (fcntl) that ends with the process, kill -9 included, so no staleness is
 * ever judged, and Node's and Bun's drivers see each other's. In memory there is nothing to share.
 * Keep the answer referenced while the gateway runs: a collected connection (Bun) would let go.
 */
export async function lockDatabaseFile(
  databasePath: string,
  /** Why the file must be ours alone, for the refusal's message. */
  why = "two gateways on one file would both send the same queued messages and undo each other's start-up",
): Promise<DatabaseLock | undefined> {
  if (databasePath === ':memory:') return undefined
  const path = lockFileOf(databasePath)
  mkdirSync(dirname(path), { recursive: true })
  const driver = isBun() ? await import('./drivers/bun') : await import('./drivers/node')
  const client: SqliteClient = driver.openClient(path)
  try {
    client.exec('PRAGMA busy_timeout = 0') // refused at once, never waited for
    client.exec('PRAGMA journal_mode = MEMORY') // no -journal file beside it
    client.exec('BEGIN EXCLUSIVE')
  } catch (error) {
    client.close()
    const code = (error as { code?: unknown }).code
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED')
      throw new DatabaseInUseError(
        `Database ${databasePath} is in use by another gateway (it holds ${path}): ${why}; stop it first, or set DATABASE_PATH to another file`,
      )
    throw error
  }
  return { path, release: () => client.close() }
}
