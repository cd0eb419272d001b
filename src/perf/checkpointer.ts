import { Worker } from 'node:worker_threads'

/**
 * An optimisation (bench: inbound; the loop's time blocked in commits): WAL checkpoints on a
 * thread of their own.
 *
 * A checkpoint copies the WAL's pages into the database file and `fsync`s both. SQLite runs it
 * inside the commit that makes the WAL cross `wal_autocheckpoint`, on the thread that writes:
 * the gateway's event loop. With 10,000 pages that took 100–120 ms of wall time, ~22 ms of it
 * CPU and the rest waiting on the disk.
 *
 * A second connection on a worker thread runs PASSIVE checkpoints: they never wait for a lock,
 * nor make the writer wait, and copy what is committed when they start. Every `pollMs` the worker
 * reads the WAL-index header (the `-shm` file; its layout is part of SQLite's documented file
 * format) for the frames not yet copied, and checkpoints once there are `batchFrames` of them, or
 * any at all after `idleMs`: a busy gateway copies each hot page once per batch, a quiet one
 * does not fsync every few hundred milliseconds for a few pages.
 *
 * Under a writer that never pauses the WAL is never wholly copied at the moment a write begins,
 * so it would not start over from its beginning and would grow without bound; the main
 * connection's own autocheckpoint stays as the backstop that lets it start over, and finds little
 * left to copy and little unsynced.
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
  /** Checkpoints the worker ran. */
  runs: number
  /** Time it spent in them, in seconds. */
  seconds: number
  /** Frames (pages) in the WAL at its last look: what a crash would leave to replay. */
  walPages: number
}

export interface CheckpointerOptions {
  /** better-sqlite3's entry file (Node), or 'bun:sqlite'. */
  driver: string
  pollMs?: number
  batchFrames?: number
  idleMs?: number
  /** The worker could not open the file or a checkpoint failed: it stopped, the backstop remains. */
  onError?(message: string): void
}

// The shared state: Int32 cells, then the time spent as BigInt64 microseconds from byte 16.
const STOP = 0
const STOPPED = 1
const RUNS = 2
const WAL_PAGES = 3

// Plain CommonJS run with `eval`: the same text works under Node, Bun and in the single binary,
// which has no file to point a worker at. The WAL-index header holds mxFrame (frames in the WAL)
// at byte 16 and nBackfill (frames copied) at byte 96, in the machine's byte order.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const { openSync, readSync, closeSync } = require('node:fs')
const { path, driver, pollMs, batchFrames, idleMs, state } = workerData
const cells = new Int32Array(state, 0, 4)
const micros = new BigInt64Array(state, 16, 1)
const header = Buffer.alloc(100)
const little = require('node:os').endianness() === 'LE'
let db
let shm
try {
  // A stop before the thread got here: the main connection may be closed, open nothing.
  if (Atomics.load(cells, ${STOP}) === 0) {
    db = driver === 'bun:sqlite'
      ? new (require('bun:sqlite').Database)(path, { readwrite: true })
      : new (require(driver))(path, { fileMustExist: true })
    db.exec('PRAGMA synchronous = NORMAL')
  }
  const checkpoint = db && db.prepare('PRAGMA wal_checkpoint(PASSIVE)')
  let lastRun = performance.now()
  while (Atomics.load(cells, ${STOP}) === 0) {
    if (shm === undefined) try { shm = openSync(path + '-shm', 'r') } catch {}
    if (shm !== undefined && readSync(shm, header, 0, 100, 0) === 100) {
      const frames = little ? header.readUInt32LE(16) : header.readUInt32BE(16)
      const copied = little ? header.readUInt32LE(96) : header.readUInt32BE(96)
      Atomics.store(cells, ${WAL_PAGES}, frames)
      const pending = frames - copied
      if (pending >= batchFrames || (pending > 0 && performance.now() - lastRun >= idleMs)) {
        const started = performance.now()
        checkpoint.get()
        lastRun = performance.now()
        Atomics.add(micros, 0, BigInt(Math.round((lastRun - started) * 1000)))
        Atomics.add(cells, ${RUNS}, 1)
      }
    }
    Atomics.wait(cells, ${STOP}, 0, pollMs)
  }
} catch (error) {
  parentPort.postMessage(String((error && error.message) || error))
} finally {
  try { if (shm !== undefined) closeSync(shm) } catch {}
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
    workerData: {
      path,
      driver: options.driver,
      pollMs: options.pollMs ?? 100,
      batchFrames: options.batchFrames ?? 2_000,
      idleMs: options.idleMs ?? 1_000,
      state,
    },
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
