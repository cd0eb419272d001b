import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { closeDatabase, openDatabase, type GatewayDatabase } from '../../src/db/database'
import { migrate } from '../../src/db/migrate'
import { workspaces } from '../../src/db/schema'
import { transaction } from '../../src/perf/transaction'
import { tempDir } from '../support/temp-dir'

/**
 * A transaction without Drizzle's per-call transaction object (bench: inbound msg/s, text
 * sends): the same atomicity, savepoints when nested, BEGIN IMMEDIATE or DEFERRED as asked.
 */
describe('transaction', () => {
  const dir = tempDir('transaction-')
  let db: GatewayDatabase
  let other: GatewayDatabase
  const names = () =>
    db
      .select({ name: workspaces.name })
      .from(workspaces)
      .all()
      .map((row) => row.name)
      .sort()
  const insert = (handle: GatewayDatabase, name: string) =>
    handle
      .insert(workspaces)
      .values({ id: `wsp_${name}`, name, plan: 'free', createdAt: new Date(), updatedAt: new Date() })
      .run()

  beforeAll(async () => {
    db = await openDatabase(join(dir.path, 'transaction.db'))
    migrate(db)
    other = await openDatabase(join(dir.path, 'transaction.db'))
    other.$client.exec('PRAGMA busy_timeout = 0')
  })
  afterAll(() => {
    closeDatabase(other)
    closeDatabase(db)
    dir.cleanup()
  })

  it('commits what the work wrote, answers what it answered, and writes nothing when it throws', () => {
    const answer = transaction(db, () => {
      insert(db, 'a')
      insert(db, 'b')
      return 'done'
    })
    expect(answer).toBe('done')
    expect(() =>
      transaction(db, () => {
        insert(db, 'c')
        throw new Error('half-way')
      }),
    ).toThrow('half-way')
    expect(names()).toEqual(['a', 'b'])
  })

  it('nested, is a savepoint: an inner failure the outer catches undoes only the inner writes', () => {
    transaction(db, () => {
      insert(db, 'd')
      try {
        transaction(db, () => {
          insert(db, 'e')
          throw new Error('inner')
        })
      } catch {}
      insert(db, 'f')
    })
    expect(names()).toEqual(['a', 'b', 'd', 'f'])
  })

  it('takes the write lock at BEGIN when immediate, and only at the first write when deferred', () => {
    transaction(db, () => expect(() => insert(other, 'g')).toThrow(/locked|busy/i))
    transaction(db, () => insert(other, 'h'), 'deferred')
    expect(names()).toContain('h')
    expect(names()).not.toContain('g')
  })

  it('builds no Drizzle transaction and one driver wrapper per connection', () => {
    const drizzleTransaction = vi.spyOn(db, 'transaction')
    const driverTransaction = vi.spyOn(db.$client as unknown as { transaction: () => unknown }, 'transaction')
    for (let i = 0; i < 50; i++) transaction(db, () => insert(db, `many${i}`))
    expect(drizzleTransaction).not.toHaveBeenCalled()
    expect(driverTransaction).not.toHaveBeenCalled() // made by the tests above, reused
    expect(names().filter((name) => name.startsWith('many'))).toHaveLength(50)
    vi.restoreAllMocks()
  })

  it("takes Drizzle's transaction where the driver has none (a Durable Object's storage)", () => {
    const drizzleTransaction = vi.fn((work: () => unknown, _config: unknown) => work())
    const durable = { $client: {}, transaction: drizzleTransaction } as unknown as GatewayDatabase
    expect(transaction(durable, () => 42)).toBe(42)
    expect(drizzleTransaction).toHaveBeenCalledWith(expect.any(Function), { behavior: 'immediate' })
  })
})
