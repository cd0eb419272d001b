import { existsSync, statSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { startCheckpointer } from '../../../src/perf/checkpointer'
import { checkpointStats } from '../../../src/db/checkpoint-stats'
import { closeDatabase, openDatabase, type GatewayDatabase } from '../../../src/db/database'
import { isBun } from '../../../src/runtime/detect'
import { queryFile } from '../../support/sqlite-file'
import { tempDir } from '../../support/temp-dir'

/**
 * WAL checkpoints on a worker thread (src/perf/checkpointer.ts), so the commits of the event loop
 * do not wait on the disk. Each test turns the main connection's own autocheckpoint off: whatever
 * reaches the database file then was copied there by the worker. Runs under Bun too.
 */
describe('background WAL checkpoints', { timeout: 30_000 }, () => {
  const dir = tempDir()
  afterAll(() => dir.cleanup())
  let n = 0
  const driverEntry = async () => (isBun() ? 'bun:sqlite' : (await import('../../../src/db/drivers/node')).entry())
  const fresh = () => join(dir.path, `db-${n++}`, 'gateway.db')

  /** 2,000 rows of 1 KB in one commit, the main connection's autocheckpoint off. */
  const writeRows = (db: GatewayDatabase) => {
    db.$client.exec('PRAGMA wal_autocheckpoint = 0')
    db.$client.exec('CREATE TABLE filler (id INTEGER PRIMARY KEY, body BLOB)')
    db.$client.exec(
      'INSERT INTO filler (body) SELECT randomblob(1024) FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) SELECT i FROM n)',
    )
  }

  it('copies committed pages into the database file while the main connection never checkpoints', async () => {
    const path = fresh()
    const db = await openDatabase(path, { checkpointInBackground: true })
    writeRows(db)
    expect(statSync(path).size).toBeLessThan(100_000) // all of it still in the WAL
    // Fewer pages than a batch: copied once they waited a second. Past the run (the file grows while it runs).
    await vi.waitFor(() => expect(checkpointStats(db)?.runs).toBe(1), { timeout: 10_000 })
    expect(statSync(path).size).toBeGreaterThan(2_000_000)
    expect(checkpointStats(db)?.walPages).toBeGreaterThan(500) // 2 MB of 4 KiB pages
    closeDatabase(db)
  })

  it('is off unless asked for: the file stays as it was with no checkpoint of the main connection', async () => {
    const path = fresh()
    const db = await openDatabase(path)
    writeRows(db)
    await sleep(600) // three of the worker's intervals
    expect(statSync(path).size).toBeLessThan(100_000)
    expect(checkpointStats(db)).toBeUndefined()
    closeDatabase(db)
  })

  it('closes its connection before the main one: nothing runs after close and the rows are in the file', async () => {
    const path = fresh()
    const db = await openDatabase(path, { checkpointInBackground: true })
    writeRows(db)
    closeDatabase(db)
    const runs = checkpointStats(db)?.runs
    await sleep(500)
    expect(checkpointStats(db)?.runs).toBe(runs)
    // The main connection closed last, so it folded the WAL into the file and removed it (Bun's
    // close leaves the WAL whether or not a worker ran: its cached statements keep the handle).
    if (!isBun()) expect(existsSync(`${path}-wal`)).toBe(false)
    expect(queryFile<{ n: number }>(path, 'SELECT count(*) AS n FROM filler')).toEqual([{ n: 2000 }])
  })

  it('a close right after the open waits for the worker to start and stop', async () => {
    const path = fresh()
    const db = await openDatabase(path, { checkpointInBackground: true })
    closeDatabase(db)
    if (!isBun()) expect(existsSync(`${path}-wal`)).toBe(false)
    const runs = checkpointStats(db)?.runs
    await sleep(300)
    expect(checkpointStats(db)?.runs).toBe(runs)
  })

  it('copies a batch as soon as it is there, and fewer pages only once they waited idleMs', async () => {
    const path = fresh()
    const db = await openDatabase(path)
    db.$client.exec('PRAGMA wal_autocheckpoint = 0')
    db.$client.exec('CREATE TABLE filler (id INTEGER PRIMARY KEY, body BLOB)')
    const insert = (rows: number) =>
      db.$client.exec(
        `INSERT INTO filler (body) SELECT randomblob(3000) FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows}) SELECT i FROM n)`,
      )
    insert(50) // ~50 frames
    const checkpointer = startCheckpointer(path, {
      driver: await driverEntry(),
      pollMs: 20,
      batchFrames: 500,
      idleMs: 1_500,
    })
    await sleep(500)
    expect(checkpointer.stats().runs).toBe(0) // 50 pending, no batch yet, not idle long enough
    expect(checkpointer.stats().walPages).toBeGreaterThanOrEqual(50)
    insert(600)
    await vi.waitFor(() => expect(checkpointer.stats().runs).toBe(1), { timeout: 1_000 })
    const batchAt = performance.now()
    const walBytes = statSync(`${path}-wal`).size
    insert(10)
    // All of it was copied and the worker holds no snapshot: the WAL started over from its
    // beginning at this write (the main connection never checkpoints here), so it did not grow.
    await vi.waitFor(() => expect(checkpointer.stats().walPages).toBeLessThan(50))
    expect(statSync(`${path}-wal`).size).toBe(walBytes)
    await vi.waitFor(() => expect(checkpointer.stats().runs).toBe(2), { timeout: 5_000 })
    expect(performance.now() - batchAt).toBeGreaterThanOrEqual(1_400)
    checkpointer.stop()
    closeDatabase(db)
    expect(queryFile<{ n: number }>(path, 'SELECT count(*) AS n FROM filler')).toEqual([{ n: 660 }])
  })

  it('says why it stopped when it cannot open the file, and its stop does not wait', async () => {
    const errors: string[] = []
    const checkpointer = startCheckpointer(join(dir.path, 'missing', 'gateway.db'), {
      driver: await driverEntry(),
      onError: (message) => errors.push(message),
    })
    await vi.waitFor(() => expect(errors).toHaveLength(1))
    expect(errors[0]).toMatch(/unable to open|cannot open/i)
    const started = performance.now()
    checkpointer.stop()
    expect(performance.now() - started).toBeLessThan(1_000) // not the 5 s it gives a live worker
    expect(checkpointer.stats().runs).toBe(0)
  })
})
