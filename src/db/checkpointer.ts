import { Worker } from 'node:worker_threads'

/**
 * An optimisation (bench: inbound msg/s): WAL checkpoints on a thread of their own.
 *
 * A checkpoint copies the WAL's pages into the database file and `fsync`s both. SQLite runs it
 * inside the commit that makes the WAL cross `wal_autocheckpoint`, on the thread that writes:
 * the gateway's event loop. With 10,000 pages that took 100–120 ms of wall time, ~22 ms of it
 * CPU and the rest waiting on the disk, about a tenth of a burst's time with the loop blocked.
 *
 * A second connection on a worker thread runs a PASSIVE checkpoint every `intervalMs`: it never
 * waits for a lock, nor makes the writer wait, and copies what is committed when it starts. Under
 * a writer that never pauses the WAL is never wholly copied at the moment a write begins, so it
 * would not start over from its beginning and would grow without bound; the main connection's
 * own autocheckpoint stays as the backstop that lets it start over, and finds little left to copy
 * and little unsynced.
 *
 * The loop is synchronous (Atomics.wait), so `stop()` can be too: `closeDatabase` stays
 * synchronous and the main connection, closing last, still folds the WAL into the file.
 */
export interface Checkpointer {
  /** Ends the worker's loop and waits (at most a few seconds) until its connection is closed. */
  stop(): void
  stats(): CheckpointStats
}

export interface CheckpointStats {
  /** PASSIVE checkpoints run (most find nothing or little to copy). */
  runs: number
  /** Time the worker spent in them, in seconds. */
  seconds: number
  /** Pages in the WAL at the last run: what a crash would leave to replay. */
  walPages: number
}

export interface CheckpointerOptions {
  /** better-sqlite3's entry file (Node), or 'bun:sqlite'. */
  driver: string
  intervalMs?: number
  /** The worker could not open the file or a checkpoint failed: it stopped, the backstop remains. */
  onError?(message: string): void
}

// The shared state: Int32 cells, then the time spent as BigInt64 microseconds from byte 16.
const STOP = 0
const STOPPED = 1
const RUNS = 2
const WAL_PAGES = 3

// Plain CommonJS run with `eval`: the same text works under Node, Bun and in the single binary,
// which has no file to point a worker at.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const { path, driver, intervalMs, state } = workerData
const cells = new Int32Array(state, 0, 4)
const micros = new BigInt64Array(state, 16, 1)
let db
try {
  // A stop before the thread got here: the main connection may be closed, open nothing.
  if (Atomics.load(cells, ${STOP}) === 0) {
    db = driver === 'bun:sqlite'
      ? new (require('bun:sqlite').Database)(path, { readwrite: true })
      : new (require(driver))(path, { fileMustExist: true })
    db.exec('PRAGMA synchronous = NORMAL')
  }
  const checkpoint = db && db.prepare('PRAGMA wal_checkpoint(PASSIVE)')
  while (Atomics.load(cells, ${STOP}) === 0) {
    const started = performance.now()
    const { log } = checkpoint.get()
    Atomics.add(micros, 0, BigInt(Math.round((performance.now() - started) * 1000)))
    Atomics.add(cells, ${RUNS}, 1)
    if (log >= 0) Atomics.store(cells, ${WAL_PAGES}, log) // -1 when the backstop held the lock
    Atomics.wait(cells, ${STOP}, 0, intervalMs)
  }
} catch (error) {
  parentPort.postMessage(String((error && error.message) || error))
} finally {
  try { if (db) db.close() } catch {}
  Atomics.store(cells, ${STOPPED}, 1)
  Atomics.notify(cells, ${STOPPED})
}
`

/** How long `stop()` waits for a checkpoint under way to end. */
const STOP_WAIT_MS = 5_000

export function startCheckpointer(path: string, options: CheckpointerOptions): Checkpointer {
  const state = new SharedArrayBuffer(24)
  const cells = new Int32Array(state, 0, 4)
  const micros = new BigInt64Array(state, 16, 1)
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { path, driver: options.driver, intervalMs: options.intervalMs ?? 200, state },
  })
  // It never holds the process open; an exit without stop() ends it with the process.
  worker.unref()
  worker.on('message', (message: string) => options.onError?.(message))
  worker.on('error', (error) => options.onError?.(error.message))
  let stopped = false
  return {
    stop() {
      if (stopped) return
      stopped = true
      Atomics.store(cells, STOP, 1)
      Atomics.notify(cells, STOP)
      Atomics.wait(cells, STOPPED, 0, STOP_WAIT_MS)
    },
    stats: () => ({
      runs: Atomics.load(cells, RUNS),
      seconds: Number(Atomics.load(micros, 0)) / 1e6,
      walPages: Atomics.load(cells, WAL_PAGES),
    }),
  }
}
