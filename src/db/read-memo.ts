import type { SqliteClient } from './database'

/**
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

/** No memo: every read goes to SQLite (the CLI, one-off commands). */
export const unmemoized: ReadMemo = { read: (_key, load) => load() }

/** After the current turn's I/O callbacks; a zero timeout where a runtime has no setImmediate. */
const afterThisTurn: (callback: () => void) => void = globalThis.setImmediate ?? ((callback) => setTimeout(callback, 0))

export function createReadMemo(client: SqliteClient): ReadMemo {
  const totalChanges = client.prepare('SELECT total_changes() AS n')
  const values = new Map<string, unknown>()
  let changesSeen = -1
  let turnScheduled = false
  const endTurn = () => {
    turnScheduled = false
    values.clear()
  }

  return {
    read<T>(key: string, load: () => T): T {
      const changes = (totalChanges.get() as { n: number }).n
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
