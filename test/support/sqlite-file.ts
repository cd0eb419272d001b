import Database from 'better-sqlite3'

/** Reads rows straight from a gateway's SQLite file, as an operator would. */
export function queryFile<T = Record<string, unknown>>(path: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(path, { readonly: true, fileMustExist: true })
  try {
    return db.prepare(sql).all(...params) as T[]
  } finally {
    db.close()
  }
}

export const authRowCount = (path: string, sessionId: string) =>
  queryFile<{ n: number }>(path, 'SELECT count(*) AS n FROM wa_auth WHERE session_id = ?', sessionId)[0]!.n
