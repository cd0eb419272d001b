import { readdirSync, readlinkSync } from 'node:fs'
import { join } from 'node:path'
import { setImmediate as nextCheckPhase } from 'node:timers/promises'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { closeDatabase, openDatabase, type GatewayDatabase } from '../../src/db/database'
import { migrate } from '../../src/db/migrate'
import { apiKeys, workspaces } from '../../src/db/schema'
import { commitWrites, groupOpen, groupWrite, onGroupCommitError } from '../../src/perf/group-commit'
import { transaction } from '../../src/perf/transaction'
import { tempDir } from '../support/temp-dir'

/**
 * Writes made for every received message share one commit per turn of the loop (bench: inbound
 * msg/s). Each stays atomic on its own; what is committed is seen from a second connection, as
 * another process (a backup, the CLI) or the gateway after a crash would see the file.
 */
describe('group commit', () => {
  const dir = tempDir('group-commit-')
  let db: GatewayDatabase
  let other: GatewayDatabase
  let commits: number
  let path: string
  let n = 0
  let dbClosed = false

  const committed = () =>
    other
      .select({ name: workspaces.name })
      .from(workspaces)
      .all()
      .map((row) => row.name)
      .sort()
  const insert = (name: string) =>
    db
      .insert(workspaces)
      .values({ id: `wsp_${name}`, name, plan: 'free', createdAt: new Date(), updatedAt: new Date() })
      .run()

  // Files the process holds open that are already deleted: how SQLite keeps its temporary files.
  const deletedFilesOpen = () =>
    readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`).endsWith('(deleted)')
      } catch {
        return false // closed meanwhile (the directory's own descriptor)
      }
    }).length

  beforeEach(async () => {
    path = join(dir.path, `group-${n++}.db`)
    db = await openDatabase(path)
    dbClosed = false
    migrate(db)
    other = await openDatabase(path)
    // Every COMMIT the connection runs, whoever asks for it (the group, a transaction, autocommit aside).
    commits = 0
    const exec = db.$client.exec.bind(db.$client)
    db.$client.exec = (sql: string) => {
      if (/^\s*COMMIT/i.test(sql)) commits++
      return exec(sql)
    }
  })
  afterEach(() => {
    closeDatabase(other)
    if (!dbClosed) closeDatabase(db)
  })

  it('commits the writes of one turn together, at the next check phase', async () => {
    for (const name of ['a', 'b', 'c']) groupWrite(db, () => insert(name))
    expect(committed()).toEqual([])
    // The writing connection reads its own writes meanwhile.
    expect(db.select().from(workspaces).all()).toHaveLength(3)
    await nextCheckPhase()
    expect(committed()).toEqual(['a', 'b', 'c'])
    expect(commits).toBe(1)
    expect(groupOpen(db)).toBe(false)
  })

  it('undoes only the writes of one that throws; the others commit', async () => {
    groupWrite(db, () => insert('a'))
    expect(() =>
      groupWrite(db, () => {
        insert('b')
        throw new Error('half-way')
      }),
    ).toThrow('half-way')
    groupWrite(db, () => insert('c'))
    await nextCheckPhase()
    expect(committed()).toEqual(['a', 'c'])
  })

  it('commits at once when asked, and does nothing when no group is open', () => {
    groupWrite(db, () => insert('a'))
    commitWrites(db)
    expect(committed()).toEqual(['a'])
    commitWrites(db)
    expect(commits).toBe(1)
  })

  it('takes in what else is written while it is open, and commits it with its own', async () => {
    groupWrite(db, () => insert('a'))
    transaction(db, () => insert('b'))
    insert('c')
    expect(committed()).toEqual([])
    await nextCheckPhase()
    expect(committed()).toEqual(['a', 'b', 'c'])
    expect(commits).toBe(1)
  })

  it('inside a transaction of its own, is part of that transaction', () => {
    transaction(db, () => {
      groupWrite(db, () => insert('a'))
      expect(groupOpen(db)).toBe(false)
    })
    expect(committed()).toEqual(['a'])
  })

  it('is not committed from inside one of its writes (that would end the write half-way)', async () => {
    groupWrite(db, () => {
      insert('a')
      commitWrites(db)
      insert('b')
    })
    expect(committed()).toEqual([])
    await nextCheckPhase()
    expect(committed()).toEqual(['a', 'b'])
  })

  it('is committed when the database closes', async () => {
    groupWrite(db, () => insert('a'))
    closeDatabase(db)
    dbClosed = true
    expect(committed()).toEqual(['a'])
  })

  it('rolls back a group whose commit fails at the check phase, tells the handler, and goes on', async () => {
    const failures: unknown[] = []
    onGroupCommitError(db, (error) => failures.push(error))
    groupWrite(db, () => insert('a'))
    // A key whose workspace does not exist, checked only at COMMIT: the commit fails.
    groupWrite(db, () => {
      db.$client.exec('PRAGMA defer_foreign_keys = ON')
      db.insert(apiKeys)
        .values({ id: 'key_orphan', workspaceId: 'wsp_missing', hash: 'h', prefix: 'wag_test', createdAt: new Date() })
        .run()
    })
    await nextCheckPhase()
    expect(failures).toHaveLength(1)
    expect(String(failures[0])).toMatch(/FOREIGN KEY/i)
    expect(committed()).toEqual([])
    expect(db.select().from(workspaces).all()).toEqual([])
    // The connection is usable: the next group commits.
    groupWrite(db, () => insert('b'))
    await nextCheckPhase()
    expect(committed()).toEqual(['b'])
  })

  it("keeps a large write's savepoint journal in memory: no temporary file is opened for it", () => {
    for (let i = 0; i < 200; i++) insert(`big-${i}-${'x'.repeat(1_000)}`)
    const before = deletedFilesOpen()
    let during = 0
    groupWrite(db, () => insert('a'))
    // A savepoint journals the pages it changes that were there before it; past 64 KiB (here
    // about 60 pages) that journal spills to a file, unless temp_store is MEMORY.
    groupWrite(db, () => {
      db.update(workspaces).set({ plan: 'paid' }).run()
      during = deletedFilesOpen()
    })
    commitWrites(db)
    expect(during - before).toBe(0)
    expect(
      other
        .select()
        .from(workspaces)
        .all()
        .filter((row) => row.plan === 'paid'),
    ).toHaveLength(201)
  })

  it('leaves sorts spilling to temporary files, in a group and out of one: their memory stays bounded', () => {
    db.$client.exec('PRAGMA cache_size = -2000')
    db.$client.exec('CREATE TABLE scratch (a TEXT)')
    const add = (db.$client as unknown as Statements).prepare('INSERT INTO scratch (a) VALUES (?)')
    transaction(db, () => {
      for (let i = 0; i < 60_000; i++) add.run(`${Math.random()}${'x'.repeat(100)}`)
    })
    // About 7 MB to sort, past a 2 MB page cache: SQLite writes sorted runs to a temporary file.
    const sortFiles = () => {
      const rows = (db.$client as unknown as Statements).prepare('SELECT a FROM scratch ORDER BY a').iterate()
      rows.next()
      const open = deletedFilesOpen()
      rows.return?.()
      return open
    }
    const before = deletedFilesOpen()
    expect(sortFiles() - before).toBeGreaterThan(0)
    groupWrite(db, () => insert('a'))
    expect(sortFiles() - before).toBeGreaterThan(0)
    commitWrites(db)
  })

  it('on a database without a synchronous transaction (a Durable Object), is a transaction of its own', () => {
    const drizzleTransaction = vi.fn((work: () => unknown, _config: unknown) => work())
    const durable = { $client: {}, transaction: drizzleTransaction } as unknown as GatewayDatabase
    expect(groupWrite(durable, () => 42)).toBe(42)
    expect(drizzleTransaction).toHaveBeenCalledWith(expect.any(Function), { behavior: 'immediate' })
    expect(groupOpen(durable)).toBe(false)
  })
})

type Statements = { prepare(sql: string): { run(...params: unknown[]): unknown; iterate(): Iterator<unknown> } }
