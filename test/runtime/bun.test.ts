import { spawnSync } from 'node:child_process'
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { closeDatabase, openDatabase } from '../../src/db/database'
import { appliedMigrationCount } from '../../src/db/migrate'
import { embeddedMigrations } from '../../src/db/migrations/bundle'
import { bin, listeningPort, repoRoot, spawnProcess } from '../support/process'
import { tempDir } from '../support/temp-dir'

const dir = tempDir()
afterAll(() => dir.cleanup())

describe('under Bun', () => {
  it('serves on bun:sqlite with the same migrations', async () => {
    const databasePath = join(dir.path, 'bun.db')
    const server = spawnProcess(bin('bun'), ['src/cli.ts', 'serve'], {
      DATABASE_PATH: databasePath,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    })
    try {
      const key = /wag_\w+/.exec(await server.waitForLine(/API key \(shown only this once/))![0]
      const port = listeningPort(await server.waitForLine(/"msg":"listening"/))
      const health = await fetch(`http://127.0.0.1:${port}/health`)
      expect(await health.json()).toMatchObject({
        status: 'ok',
        whatsappWebVersion: { version: expect.stringMatching(/^2\.\d+\.\d+$/), source: 'bundled' },
      })
      const authed = await fetch(`http://127.0.0.1:${port}/v1/workspace`, {
        headers: { authorization: `Bearer ${key}` },
      })
      expect(authed.status).toBe(200)
      expect(await authed.json()).toMatchObject({ name: 'default' })
      const refused = await fetch(`http://127.0.0.1:${port}/v1/workspace`)
      expect(refused.status).toBe(401)
    } finally {
      expect(await server.stop()).toBe(0)
    }
    // Read the file Bun wrote with Node's driver: same schema, same bookkeeping.
    const db = await openDatabase(databasePath)
    expect(appliedMigrationCount(db)).toBe(embeddedMigrations.length)
    closeDatabase(db)
  })

  it('keeps bun.lockb in step with package.json', () => {
    // In a copy, so the check never touches node_modules.
    const copy = join(dir.path, 'lockfile')
    spawnSync('mkdir', ['-p', join(copy, 'integrations/n8n')])
    // The workspaces' package.json too: their dependencies are in the lockfile.
    for (const file of ['package.json', 'bun.lockb', 'bunfig.toml', 'integrations/n8n/package.json'])
      copyFileSync(join(repoRoot, file), join(copy, file))
    const check = spawnSync(bin('bun'), ['install', '--frozen-lockfile', '--lockfile-only'], {
      cwd: copy,
      encoding: 'utf8',
    })
    expect(check.status, `${check.stderr}\nrun: bun install --lockfile-only, and commit bun.lockb`).toBe(0)
  }, 120_000)
})
