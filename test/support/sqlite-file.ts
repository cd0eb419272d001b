import { createRequire } from 'node:module'
import { isBun } from '../../src/runtime/detect'

interface ReadonlyDatabase {
  prepare(sql: string): { all(...params: unknown[]): unknown[] }
  close(): void
}

const require = createRequire(import.meta.url)

/** Opens read-only with the running runtime's driver: better-sqlite3 does not load under Bun. */
function openReadonly(path: string): ReadonlyDatabase {
  if (isBun()) {
    const { Database } = require('bun:sqlite') as typeof import('bun:sqlite')
    return new Database(path, { readonly: true })
  }
  const Database = require('better-sqlite3') as typeof import('better-sqlite3')
  return new Database(path, { readonly: true, fileMustExist: true })
}

/** Reads rows straight from a gateway's SQLite file, as an operator would. */
export function queryFile<T = Record<string, unknown>>(path: string, sql: string, ...params: unknown[]): T[] {
  const db = openReadonly(path)
  try {
    return db.prepare(sql).all(...params) as T[]
  } finally {
    db.close()
  }
}

export const authRowCount = (path: string, sessionId: string) =>
  queryFile<{ n: number }>(path, 'SELECT count(*) AS n FROM wa_auth WHERE session_id = ?', sessionId)[0]!.n

/**
 * Writes to a gateway's SQLite file through a connection of its own, as another process (the
 * CLI, an operator's sqlite3 shell, a second gateway) would, then lets the event loop turn:
 * the gateway reads its trigger-kept counters again from its next turn (src/perf/read-memo.ts).
 */
export async function writeFileElsewhere(path: string, sql: string, ...params: unknown[]): Promise<void> {
  const Database = require('better-sqlite3') as typeof import('better-sqlite3')
  const db = new Database(path, { fileMustExist: true })
  try {
    db.pragma('foreign_keys = ON')
    db.prepare(sql).run(...params)
  } finally {
    db.close()
  }
  await new Promise((resolve) => setImmediate(resolve))
}
