import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { closeDatabase, createGateway, loadConfig, openDatabase } from '../../src/index'
import { bin, repoRoot } from '../support/process'
import { tempDir } from '../support/temp-dir'

const SCRIPT = 'test/embedding/first-key-script.ts'

/**
 * An embedding app's first workspace and key, as docs/embedding.md shows it: the admin routes
 * called in-process through the factory's app. The script is the document's, run on an empty
 * database in a process of its own; the key it prints then works on the same file.
 */
describe('docs/embedding.md: the first workspace and key', () => {
  const dir = tempDir()
  afterAll(() => dir.cleanup())

  it('is the script the document shows, but for the import', () => {
    const doc = readFileSync(join(repoRoot, 'docs/embedding.md'), 'utf8')
    const shown = /```ts\n\/\/ scripts\/first-key\.ts[^\n]*\n([\s\S]*?)```/.exec(doc)?.[1]
    const script = readFileSync(join(repoRoot, SCRIPT), 'utf8')
    const body = script.slice(script.indexOf('import {')).replace("'../../src/index'", "'wa-session-gateway'")
    expect(shown).toBe(body)
  })

  it('makes a workspace and a key that works, and exits by itself', async () => {
    const databasePath = join(dir.path, 'app.db')
    const ran = spawnSync(bin('tsx'), [SCRIPT], {
      cwd: repoRoot,
      env: {
        ...process.env,
        DATABASE_PATH: databasePath,
        ADMIN_API_KEY: 'an-admin-key-of-at-least-32-characters',
        LOG_LEVEL: 'warn',
      },
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(ran.status, ran.stderr).toBe(0)
    const key = ran.stdout.trim()
    expect(key).toMatch(/^wag_\w+$/)

    const database = await openDatabase(databasePath)
    const wa = createGateway({ database, config: loadConfig({ DATABASE_PATH: databasePath, LOG_LEVEL: 'silent' }) })
    try {
      const workspace = await wa.app.request('/v1/workspace', { headers: { authorization: `Bearer ${key}` } })
      expect(workspace.status).toBe(200)
      expect(await workspace.json()).toMatchObject({ name: 'acme', plan: 'paid' })
    } finally {
      await wa.stop()
      closeDatabase(database)
    }
  }, 90_000)
})
