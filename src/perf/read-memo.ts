import type { SqliteClient } from '../db/database'

/**
 * An optimisation (bench: authed `GET /v1/session/all` and `/v1/workspace` req/s and µs,
 * `test/bench/throughput.ts` and `in-process.ts`).
 *
 * Counters that triggers maintain (`auth_version`, `session_list_versions`), read once and
 * shared by every request a gateway handles in the same event-loop turn. Why: each SQLite
 * read takes and drops the WAL read lock (two syscalls), which made these point reads the
 * largest cost of a cached request under load.
 *
 * A remembered value is forgotten
 * - as soon as this connection writes anything (`total_changes()`, triggers included, moved):
 *   the gateway's own writes are seen by its very next read;
 * - when the event loop turns (`setImmediate`): a commit by another process (the CLI, a second
 *   gateway) is seen by every request whose handling starts in a later turn.
 * Read outside transactions only: a value read inside one that rolls back would be remembered.
 */
export interface ReadMemo {
  read<T>(key: string, load: () => T): T
}

/** After the current turn's I/O callbacks; a zero timeout where a runtime has no setImmediate. */
const afterThisTurn: (callback: () => void) => void = globalThis.setImmediate ?? ((callback) => setTimeout(callback, 0))

/**
 * `total_changes()` as a number. better-sqlite3 can hand the value over without a row object,
 * a quarter of the cost (45 vs 187 ns), and it is read for every memoized read.
 */
function totalChangesReader(client: SqliteClient): () => number {
  const statement: ReturnType<SqliteClient['prepare']> & { pluck?(): { get(): unknown } } =
    client.prepare('SELECT total_changes() AS n')
  if (typeof statement.pluck === 'function') {
    const plucked = statement.pluck()
    return () => plucked.get() as number
  }
  return () => (statement.get() as { n: number }).n
}

export function createReadMemo(client: SqliteClient): ReadMemo {
  const totalChanges = totalChangesReader(client)
  const values = new Map<string, unknown>()
  let changesSeen = -1
  let turnScheduled = false
  const endTurn = () => {
    turnScheduled = false
    values.clear()
  }

  return {
    read<T>(key: string, load: () => T): T {
      const changes = totalChanges()
      if (changes !== changesSeen) {
        changesSeen = changes
        values.clear()
      }
      if (values.has(key)) return values.get(key) as T
      const value = load()
      values.set(key, value)
      if (!turnScheduled) {
        turnScheduled = true
        afterThisTurn(endTurn)
      }
      return value
    },
  }
}
