import { existsSync, mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { GatewayError } from '../errors'
import type { GatewayDatabase } from './database'

/**
 * Writes a consistent copy of the database to `target` with `VACUUM INTO`: one read
 * transaction, so it is safe while the gateway runs and writes (WAL), and the copy is a
 * compact single file with no -wal/-shm beside it. Refuses to overwrite an existing file.
 */
export function backupDatabase(db: GatewayDatabase, target: string): string {
  const path = resolve(target)
  if (existsSync(path))
    throw new GatewayError('validation_error', `${path} already exists; backup never overwrites a file`)
  mkdirSync(dirname(path), { recursive: true })
  // VACUUM INTO takes an expression; a quoted literal works the same on better-sqlite3 and bun:sqlite.
  db.$client.exec(`VACUUM INTO '${path.replaceAll("'", "''")}'`)
  return path
}
