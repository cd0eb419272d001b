import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { pollUntil } from '../support/poll'
import { listeningPort, repoRoot, runCli, spawnProcess } from '../support/process'
import { tempDir } from '../support/temp-dir'

/**
 * What a person who runs `serve` reads, as they meet it: on stderr (stdout is the JSON log) one
 * line naming the panel, docs and API, each of which answers; `/` in a browser lands on the
 * panel; a later start on the same database says how to make a key again, and that command works.
 */
describe('serve tells its user where to go', { timeout: 120_000 }, () => {
  const dir = tempDir()
  afterAll(() => dir.cleanup())
  const env = { DATABASE_PATH: join(dir.path, 'startup.db'), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' }

  /** Starts serve; answers its base URL and what it wrote on stderr once the notice is complete. */
  async function start(noticeLines: number) {
    const server = spawnProcess(join('node_modules', '.bin', 'tsx'), ['src/cli.ts', 'serve'], env)
    let stderr = ''
    server.child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const base = `http://127.0.0.1:${listeningPort(await server.waitForLine(/"msg":"listening"/, 30_000))}`
    await pollUntil(
      () => stderr,
      (text) => text.split('\n').length > noticeLines,
      { what: `${noticeLines} line(s) on stderr` },
    )
    return { server, base, stderr: () => stderr }
  }

  it('a fresh start: the URLs on stderr, / leading to the panel, the key banner and no hint', async () => {
    const { server, base, stderr } = await start(1)
    try {
      expect(stderr()).toBe(`wa-gateway is up: panel ${base}/panel · API docs ${base}/docs · API ${base}/v1\n`)
      const key = /API key \(shown only this once, store it now\): (wag_\w+)/.exec(server.output())![1]!

      const root = await fetch(`${base}/`, { redirect: 'manual' })
      expect(root.status).toBe(302)
      expect(new URL(root.headers.get('location')!, `${base}/`).href).toBe(`${base}/panel`)
      const landed = await fetch(`${base}/`)
      expect(landed.url).toBe(`${base}/panel`)
      expect(landed.headers.get('content-type')).toMatch(/^text\/html/)

      expect((await fetch(`${base}/docs`)).status).toBe(200)
      const workspace = await fetch(`${base}/v1/workspace`, { headers: { authorization: `Bearer ${key}` } })
      expect(await workspace.json()).toMatchObject({ name: 'default' })
    } finally {
      expect(await server.stop()).toBe(0)
    }
  })

  it('a later start: how to make a new key, and that command makes one that works', async () => {
    const { server, base, stderr } = await start(2)
    try {
      const [up, hint] = stderr().trimEnd().split('\n')
      expect(up).toBe(`wa-gateway is up: panel ${base}/panel · API docs ${base}/docs · API ${base}/v1`)
      expect(hint).toBe('Lost the API key? Make a new one: npm run -s cli -- key create default')
      expect(server.output()).not.toContain('shown only this once')

      // Run what the hint says, word for word, as its reader would (from the repository).
      const [command, ...args] = hint!.slice(hint!.indexOf(': ') + 2).split(' ')
      const made = spawnSync(command!, args, { cwd: repoRoot, env: { ...process.env, ...env }, encoding: 'utf8' })
      expect(made.status, made.stderr).toBe(0)
      const workspace = await fetch(`${base}/v1/workspace`, {
        headers: { authorization: `Bearer ${made.stdout.trim()}` },
      })
      expect(await workspace.json()).toMatchObject({ name: 'default' })
    } finally {
      expect(await server.stop()).toBe(0)
    }
  })

  it('with several workspaces: the hint leaves the name to fill in and says where to find it', async () => {
    expect(runCli(['workspace', 'create', 'acme'], env).status).toBe(0)
    const { server, stderr } = await start(2)
    try {
      expect(stderr().trimEnd().split('\n')[1]).toBe(
        'Lost an API key? Make a new one: npm run -s cli -- key create <workspace> (npm run -s cli -- workspace list names them)',
      )
    } finally {
      expect(await server.stop()).toBe(0)
    }
  })
})
