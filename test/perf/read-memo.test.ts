import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeDatabase, openDatabase, type GatewayDatabase } from '../../src/db/database'
import { createReadMemo, type ReadMemo } from '../../src/perf/read-memo'
import { writeFileElsewhere } from '../support/sqlite-file'
import { tempDir } from '../support/temp-dir'

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

/** The read memo (bench: the authed list's req/s, two SQLite reads per request saved under load). */
describe('createReadMemo', () => {
  const dir = tempDir()
  const path = join(dir.path, `${randomBytes(4).toString('hex')}.db`)
  let db: GatewayDatabase
  let memo: ReadMemo
  const counter = () => (db.$client.prepare('SELECT n FROM counter').get() as { n: number }).n
  let loads = 0
  const read = () =>
    memo.read('counter', () => {
      loads++
      return counter()
    })

  beforeAll(async () => {
    db = await openDatabase(path)
    db.$client.exec('CREATE TABLE counter (n INTEGER NOT NULL); INSERT INTO counter VALUES (1)')
    memo = createReadMemo(db.$client)
  })
  afterAll(() => {
    closeDatabase(db)
    dir.cleanup()
  })

  it('reads once per event-loop turn, and again in the next one', async () => {
    loads = 0
    expect([read(), read(), read()]).toEqual([1, 1, 1])
    expect(loads).toBe(1)
    await nextTurn()
    read()
    expect(loads).toBe(2)
  })

  it('forgets at once when this connection writes, in the same turn', () => {
    expect(read()).toBe(1)
    db.$client.exec('UPDATE counter SET n = 2')
    expect(read()).toBe(2)
  })

  it('sees another process’s commit from the next turn on', async () => {
    await nextTurn()
    expect(read()).toBe(2)
    await writeFileElsewhere(path, 'UPDATE counter SET n = 3') // lets the loop turn, as a request boundary does
    expect(read()).toBe(3)
  })
})
