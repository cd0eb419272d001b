import { eq, sql } from 'drizzle-orm'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeDatabase, openDatabase, type GatewayDatabase } from '../../src/db/database'
import { migrate } from '../../src/db/migrate'
import { workspaces } from '../../src/db/schema'
import { createStatementCache, prepared } from '../../src/perf/prepared'
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
})
