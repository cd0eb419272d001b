import { asc, eq, sql } from 'drizzle-orm'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeDatabase, openDatabase, type GatewayDatabase } from '../../src/db/database'
import { migrate } from '../../src/db/migrate'
import { workspaces } from '../../src/db/schema'
import { createStatementCache, fixedLimit, prepared } from '../../src/perf/prepared'
import { createQueue } from '../../src/webhooks/queue'
import { tempDir } from '../support/temp-dir'

/** A statement is prepared once per gateway and reused, in its transactions too; on another connection it is built per call. */
describe('prepared', () => {
  const dir = tempDir('prepared-')
  let db: GatewayDatabase
  let builds = 0
  const byName = (handle: GatewayDatabase) => {
    builds++
    return handle
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(eq(workspaces.name, sql.placeholder('name')))
      .prepare()
  }

  beforeAll(async () => {
    db = await openDatabase(join(dir.path, 'prepared.db'))
    migrate(db)
    db.insert(workspaces)
      .values({ id: 'wsp_1', name: 'one', plan: 'free', createdAt: new Date(), updatedAt: new Date() })
      .run()
  })
  afterAll(() => {
    closeDatabase(db)
    dir.cleanup()
  })

  it('builds a statement once per cache and answers with it again', () => {
    builds = 0
    const ctx = { db, statements: createStatementCache(db) }
    expect(prepared(ctx, byName).get({ name: 'one' })).toEqual({ id: 'wsp_1' })
    expect(prepared(ctx, byName)).toBe(prepared(ctx, byName))
    expect(prepared(ctx, byName).get({ name: 'two' })).toBeUndefined()
    expect(builds).toBe(1)
    // Another gateway on the same file has statements of its own.
    prepared({ db, statements: createStatementCache(db) }, byName)
    expect(builds).toBe(2)
  })

  it('answers the cached statement on a transaction of the cache’s database (same connection)', () => {
    builds = 0
    const statements = createStatementCache(db)
    db.transaction((tx) => {
      const ctx = { db: tx as unknown as GatewayDatabase, statements }
      expect(prepared(ctx, byName).get({ name: 'one' })).toEqual({ id: 'wsp_1' })
      prepared(ctx, byName)
    })
    expect(prepared({ db, statements }, byName).get({ name: 'one' })).toEqual({ id: 'wsp_1' })
    expect(builds).toBe(1)
    expect(statements.statements.size).toBe(1)
  })

  it('builds on the handle given when it is another connection, every time', async () => {
    builds = 0
    const other = await openDatabase(join(dir.path, 'other.db'))
    migrate(other)
    try {
      const statements = createStatementCache(db)
      other.transaction((tx) => {
        const ctx = { db: tx as unknown as GatewayDatabase, statements }
        expect(prepared(ctx, byName).get({ name: 'one' })).toBeUndefined()
        prepared(ctx, byName)
      })
      expect(builds).toBe(2)
      expect(statements.statements.size).toBe(0)
    } finally {
      closeDatabase(other)
    }
  })

  it('fixedLimit writes the LIMIT into the SQL: the statement binds only its placeholders', () => {
    db.insert(workspaces)
      .values({ id: 'wsp_0', name: 'zero', plan: 'free', createdAt: new Date(), updatedAt: new Date() })
      .run()
    const first = db
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(sql`${workspaces.plan} = ${sql.placeholder('plan')}`)
      .orderBy(asc(workspaces.name))
      .limit(fixedLimit(1))
      .prepare()
    const query = first.getQuery()
    expect(query.sql).toMatch(/ limit 1$/)
    expect(query.params).toHaveLength(1)
    expect(first.all({ plan: 'free' })).toEqual([{ id: 'wsp_1' }])
    expect(first.all({ plan: 'paid' })).toEqual([])
    for (const bad of [-1, 1.5, Number.NaN]) expect(() => fixedLimit(bad)).toThrow(RangeError)
  })

  it('the webhook dispatcher’s queries bind no LIMIT (SQLite would prepare them again on every run)', () => {
    const statements = createStatementCache(db)
    const queue = createQueue({ db, statements })
    queue.headOf({ sessionId: 'ses_none', webhookId: null }, new Date())
    queue.headOf({ sessionId: 'ses_none', webhookId: 'whk_none' }, new Date())
    queue.streamsOf('ses_none')
    const texts = [...statements.statements.values()].map(
      (statement) => (statement as { getQuery(): { sql: string } }).getQuery().sql,
    )
    expect(texts).toHaveLength(3)
    for (const text of texts) expect(text).not.toMatch(/limit \?/i)
  })
})
