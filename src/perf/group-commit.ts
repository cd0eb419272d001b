import type { GatewayDatabase } from '../db/database'
import { transaction } from './transaction'

/**
 * An optimisation (bench: inbound msg/s, disk writes a message): writes made for every received
 * message (its record, its event, the Signal keys its decryption moved on) share one commit per
 * turn of the event loop instead of taking one each. A commit writes every page it changed to the WAL, and the
 * messages of a burst change the same pages: one commit for eight of them writes about half the
 * pages eight commits do.
 *
 * What makes it safe is a write-ahead rule: nothing leaves the process before the writes that
 * led to it are committed. `commitWrites` runs
 * - before any frame goes to WhatsApp (a receipt makes the server forget a message; see the
 *   engine's AuthStore.commit),
 * - before an HTTP answer, and before webhook deliveries or an event stream's events are read,
 * - at the loop's next check phase, and when the database closes.
 * A request to an operator's API (Chatwoot, net/guarded-request.ts) opens a connection of its
 * own first, and the loop passes a check phase before its first byte leaves. A crash before the
 * commit loses only writes nobody was told about: WhatsApp relays those messages again, and the
 * keys are as they were when it first did.
 *
 * Anything else written while a group is open (a transaction of its own, a single statement)
 * joins it and is committed with it.
 */
interface Group {
  /** groupWrite calls under way: a commit waits for them (it would end their savepoints). */
  depth: number
}

type Client = { exec(sql: string): unknown; inTransaction?: boolean; transaction?: unknown }

const groups = new WeakMap<object, Group>()
const errorHandlers = new WeakMap<object, (error: unknown) => void>()

/**
 * Who hears of a commit that failed at the check phase, where no caller is left to throw to
 * (the gateway logs it). Without one the error is thrown there.
 */
export function onGroupCommitError(db: GatewayDatabase, handler: (error: unknown) => void): void {
  errorHandlers.set(db.$client, handler)
}

/** The loop's next check phase; a zero timeout where a runtime has no setImmediate. */
const nextTurn: (callback: () => void) => void = globalThis.setImmediate ?? ((callback) => setTimeout(callback, 0))

/**
 * Runs `work` (synchronous writes) in the connection's open group, opening one when none is:
 * atomic on its own (a savepoint: when it throws, only its writes are undone), durable at the
 * group's commit. In a caller's own transaction, or on a database without a synchronous driver
 * transaction (a Durable Object's, which coalesces its writes itself), it is a plain transaction.
 */
export function groupWrite<T>(db: GatewayDatabase, work: () => T): T {
  const client = db.$client as Client
  let group = groups.get(client)
  if (!group) {
    if (typeof client.transaction !== 'function' || client.inTransaction) return transaction(db, work)
    // A savepoint journals the pages it changes, and past 64 KiB SQLite spills that journal to a
    // temporary file, opened and deleted for each one: for every received message. Where it
    // keeps savepoint journals is settled when a transaction begins, so the group's are kept in
    // memory while the connection's sorts still spill to files as before (memory stays bounded).
    client.exec('PRAGMA temp_store = MEMORY')
    try {
      client.exec('BEGIN IMMEDIATE')
    } finally {
      client.exec('PRAGMA temp_store = DEFAULT')
    }
    group = { depth: 0 }
    groups.set(client, group)
    nextTurn(() => commitScheduled(db))
  }
  group.depth++
  try {
    return transaction(db, work)
  } finally {
    group.depth--
  }
}

/**
 * Commits the connection's open group, if any. A no-op inside a groupWrite (the write's own
 * group commits after it); called inside another transaction's work it would end that
 * transaction half-way, so it is called where nothing runs one: before a frame, after a request,
 * at a pump's start. When the commit fails, what the group held is rolled back (its receipts
 * were not sent) and the error is thrown.
 */
export function commitWrites(db: GatewayDatabase): void {
  const client = db.$client as Client
  const group = groups.get(client)
  if (!group || group.depth > 0) return
  groups.delete(client)
  try {
    client.exec('COMMIT')
  } catch (error) {
    if (client.inTransaction) client.exec('ROLLBACK')
    throw error
  }
}

/** Whether a group is open on the connection (writes made now are not yet durable). */
export function groupOpen(db: GatewayDatabase): boolean {
  return groups.has(db.$client)
}

function commitScheduled(db: GatewayDatabase): void {
  try {
    commitWrites(db)
  } catch (error) {
    const handler = errorHandlers.get(db.$client)
    if (!handler) throw error
    handler(error)
  }
}
