import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { closeDatabase, openDatabase, type GatewayDatabase } from '../../src/db/database'
import { appliedMigrationCount, migrate } from '../../src/db/migrate'
import { embeddedMigrations } from '../../src/db/migrations/bundle'
import { readMigrationFolder } from '../../src/db/migrations/folder'
import { createApiKey, verifyApiKey } from '../../src/services/api-keys'
import { createWorkspace, listWorkspaces } from '../../src/services/workspaces'
import { systemClock } from '../../src/clock'
import { resolveConfig } from '../../src/config'
import { silentLogger } from '../../src/logger'
import { createGateway } from '../../src/gateway'
import { startTestGateway } from '../support/gateway'
import { tempDir } from '../support/temp-dir'

const dirs: { cleanup(): void }[] = []
const freshPath = () => {
  const dir = tempDir()
  dirs.push(dir)
  return join(dir.path, 'gateway.db')
}
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.cleanup()
})

const ctxOf = (db: GatewayDatabase) => ({ db, clock: systemClock, logger: silentLogger(), config: resolveConfig() })
const tables = (db: GatewayDatabase) =>
  (
    db.$client.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]
  ).map((r) => r.name)

describe('migrations', () => {
  it('embeds exactly what drizzle-kit generated in drizzle/', () => {
    const folder = join(import.meta.dirname, '../../drizzle')
    expect(embeddedMigrations).toEqual(readMigrationFolder(folder, (p, enc) => readFileSync(p, enc)))
    expect(embeddedMigrations.length).toBeGreaterThan(0)
  })

  it('creates every table on a fresh file, with WAL (checkpointed every 10,000 pages) and foreign keys on', async () => {
    const db = await openDatabase(freshPath())
    expect(migrate(db)).toBe(embeddedMigrations.length)
    expect(tables(db)).toEqual(expect.arrayContaining(['workspaces', 'api_keys', '__drizzle_migrations']))
    expect(db.$client.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' })
    expect(db.$client.prepare('PRAGMA foreign_keys').get()).toEqual({ foreign_keys: 1 })
    expect(db.$client.prepare('PRAGMA wal_autocheckpoint').get()).toEqual({ wal_autocheckpoint: 10000 })
    expect(migrate(db)).toBe(0)
    closeDatabase(db)
  })

  it('upgrades a file left at each earlier migration and keeps its data', async () => {
    for (let applied = 1; applied <= embeddedMigrations.length; applied++) {
      const path = freshPath()
      const old = await openDatabase(path)
      migrate(old, embeddedMigrations.slice(0, applied))
      expect(appliedMigrationCount(old)).toBe(applied)
      const ctx = ctxOf(old)
      createWorkspace(ctx, { name: `kept-${applied}`, plan: 'paid' })
      const { key } = createApiKey(ctx, { workspace: `kept-${applied}` })
      closeDatabase(old)

      const db = await openDatabase(path)
      expect(migrate(db)).toBe(embeddedMigrations.length - applied)
      expect(verifyApiKey(ctxOf(db), key)?.name).toBe(`kept-${applied}`)
      closeDatabase(db)
    }
  })

  it('keeps workspaces and keys across a gateway restart on the same file', async () => {
    const databasePath = freshPath()
    const first = await startTestGateway({ databasePath })
    expect((await first.request('/v1/workspace')).status).toBe(200)
    await first.close()

    const database = await openDatabase(databasePath)
    const restarted = createGateway({ database, logger: silentLogger() })
    const response = await restarted.app.request('/v1/workspace', { headers: { authorization: `Bearer ${first.key}` } })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ name: 'test' })
    expect(listWorkspaces(restarted.context).map((w) => w.name)).toEqual(['test'])
    closeDatabase(database)
  })
})
