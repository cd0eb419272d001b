import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { systemClock } from '../../src/clock'
import { resolveConfig } from '../../src/config'
import { closeDatabase, openDatabase } from '../../src/db/database'
import { migrate } from '../../src/db/migrate'
import { silentLogger } from '../../src/logger'
import { createWorkspace } from '../../src/services/workspaces'
import { repoRoot } from '../support/process'
import { queryFile } from '../support/sqlite-file'
import { tempDir } from '../support/temp-dir'

const run = promisify(execFile)

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
    const workspace = createWorkspace({ db, clock: systemClock, logger: silentLogger(), config: resolveConfig() }, { name: 'shared' })
    closeDatabase(db)

    // Many small days: each is a race to its limit, where a non-atomic check lets both through.
    const days = 2_000
    const limit = 2
    const startAt = Date.now() + 4_000 // after both processes have loaded
    const worker = () =>
      run(process.execPath, ['--import', 'tsx', 'test/support/quota-worker.ts', databasePath, workspace.id, String(days), String(limit), String(startAt)], {
        cwd: repoRoot,
      })
    const outputs = await Promise.all([worker(), worker()])
    const results = outputs.map(({ stdout }) => JSON.parse(stdout) as { reserved: number; refused: number })
    expect(results.reduce((sum, r) => sum + r.reserved, 0)).toBe(days * limit)
    expect(results.every((r) => r.reserved > 0)).toBe(true) // both really took part
    const rows = queryFile<{ used: number }>(databasePath, 'SELECT used FROM contact_check_usage WHERE workspace_id = ?', workspace.id)
    expect(rows).toHaveLength(days)
    expect(rows.every((row) => row.used === limit)).toBe(true)
  }, 60_000)
})
