import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { systemClock } from '../../../src/clock'
import { resolveConfig } from '../../../src/config'
import { closeDatabase, openDatabase } from '../../../src/db/database'
import { migrate } from '../../../src/db/migrate'
import { silentLogger } from '../../../src/logger'
import { createWorkspace } from '../../../src/services/workspaces'
import { spawnProcess } from '../../support/process'
import { queryFile } from '../../support/sqlite-file'
import { tempDir } from '../../support/temp-dir'

/**
 * The daily quota is one counter in the SQLite file; the gateway, the CLI or a second gateway
 * may use the same file. Two processes reserve checks as fast as they can at the same moment:
 * together they must get exactly the limit, never more, and lose no count.
 */
describe('quota reservations across processes', () => {
  const dir = tempDir()
  afterAll(() => dir.cleanup())

  it('never passes the limit when two processes reserve at once', async () => {
    const databasePath = join(dir.path, 'gateway.db')
    const db = await openDatabase(databasePath)
    migrate(db)
    const workspace = createWorkspace(
      { db, clock: systemClock, logger: silentLogger(), config: resolveConfig() },
      { name: 'shared' },
    )
    closeDatabase(db)

    // Many small days: each is a race to its limit, where a non-atomic check lets both through.
    const days = 2_000
    const limit = 2
    const goFile = join(dir.path, 'go')
    const workers = [0, 1].map(() =>
      spawnProcess(
        process.execPath,
        [
          '--import',
          'tsx',
          'test/support/quota-worker.ts',
          databasePath,
          workspace.id,
          String(days),
          String(limit),
          goFile,
        ],
        {},
      ),
    )
    await Promise.all(workers.map((worker) => worker.waitForLine(/^ready$/, 30_000)))
    writeFileSync(goFile, 'go')
    const results = await Promise.all(
      workers.map(
        async (worker) =>
          JSON.parse(await worker.waitForLine(/^\{"reserved"/, 30_000)) as { reserved: number; refused: number },
      ),
    )
    expect(results.reduce((sum, r) => sum + r.reserved, 0)).toBe(days * limit)
    // Both made every attempt, side by side from the same instant (the go file).
    expect(results.every((r) => r.reserved + r.refused === days * (limit + 1))).toBe(true)
    const rows = queryFile<{ used: number }>(
      databasePath,
      'SELECT used FROM contact_check_usage WHERE workspace_id = ?',
      workspace.id,
    )
    expect(rows).toHaveLength(days)
    expect(rows.every((row) => row.used === limit)).toBe(true)
  }, 60_000)
})
