import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { closeDatabase, openDatabase } from '../src/db/database'
import { listeningPort, runCli, spawnProcess } from './support/process'
import { startLoopbackServer } from './support/loopback-server'
import { queryFile } from './support/sqlite-file'
import { tempDir } from './support/temp-dir'

const dir = tempDir()
afterAll(() => dir.cleanup())
const env = { DATABASE_PATH: join(dir.path, 'cli.db') }

// Each test spawns the CLI (tsx) several times: seconds on a quiet machine, far more on a busy one.
describe('CLI', { timeout: 90_000 }, () => {
  it('creates a workspace and a key that works over HTTP until it is revoked', async () => {
    const created = runCli(['workspace', 'create', 'acme', '--plan', 'paid'], env)
    expect(created.status, created.stderr).toBe(0)
    expect(created.stdout).toMatch(/^wsp_\w+\s+acme\s+paid$/m)

    const issued = runCli(['key', 'create', 'acme'], env)
    expect(issued.status, issued.stderr).toBe(0)
    const key = issued.stdout.trim()
    expect(key).toMatch(/^wag_[a-z2-7]{40}$/)

    const listed = runCli(['key', 'list', 'acme'], env)
    expect(listed.stdout).toContain(key.slice(0, 12))
    expect(listed.stdout).not.toContain(key)
    const keyId = /key_\w+/.exec(listed.stdout)![0]

    const server = spawnProcess(join('node_modules', '.bin', 'tsx'), ['src/cli.ts', 'serve'], {
      ...env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    })
    try {
      const port = listeningPort(await server.waitForLine(/"msg":"listening"/))
      const call = () => fetch(`http://127.0.0.1:${port}/v1/workspace`, { headers: { authorization: `Bearer ${key}` } })
      const ok = await call()
      expect(ok.status).toBe(200)
      expect(await ok.json()).toMatchObject({ name: 'acme', plan: 'paid' })

      const revoked = runCli(['key', 'revoke', keyId], env)
      expect(revoked.status, revoked.stderr).toBe(0)
      const refused = await call()
      expect(refused.status).toBe(401)
      expect(await refused.json()).toMatchObject({ error: 'unauthorized' })
      // The key must never appear in the server's logs.
      expect(server.output()).not.toContain(key)
    } finally {
      await server.stop()
    }
  })

  it('lists workspaces and refuses bad input with a clear message', () => {
    expect(runCli(['workspace', 'list'], env).stdout).toMatch(/acme\s+paid/)
    const badPlan = runCli(['workspace', 'create', 'x', '--plan', 'gold'], env)
    expect(badPlan.status).not.toBe(0)
    expect(badPlan.stderr).toContain('--plan must be one of: free, paid')
    const unknownWorkspace = runCli(['key', 'create', 'nobody'], env)
    expect(unknownWorkspace.status).not.toBe(0)
    expect(unknownWorkspace.stderr).toContain('Workspace "nobody" not found')
  })

  it('refuses a name with control characters, and prints an old one escaped, never raw to the terminal', async () => {
    const refused = runCli(['workspace', 'create', '\u001b]0;pwned\u0007evil'], env)
    expect(refused.status).not.toBe(0)
    expect(refused.stderr).toContain('name: must not contain control characters')
    // A row from before names were checked (or written by hand).
    const db = await openDatabase(env.DATABASE_PATH)
    db.$client.exec(
      "INSERT INTO workspaces (id, name, plan, created_at, updated_at) VALUES ('wsp_legacyansiname00000', " +
        "char(27) || '[2J' || char(27) || '[31mred' || char(8238), 'free', 0, 0)",
    )
    closeDatabase(db)
    const listed = runCli(['workspace', 'list'], env).stdout
    expect(listed).toContain('\\u{001b}[2J\\u{001b}[31mred\\u{202e}')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for raw control characters
    expect(listed).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/)
  })

  it('moves a workspace to another plan', () => {
    const moved = runCli(['workspace', 'plan', 'acme', 'free'], env)
    expect(moved.status, moved.stderr).toBe(0)
    expect(moved.stdout).toMatch(/acme\s+free/)
    expect(runCli(['workspace', 'plan', 'acme', 'gold'], env).stderr).toContain('one of: free, paid')
  })

  it('backs the database up to a file that opens with the same workspaces, and never overwrites', () => {
    const target = join(dir.path, 'backups', 'copy.db')
    const backup = runCli(['backup', target], env)
    expect(backup.status, backup.stderr).toBe(0)
    expect(backup.stdout).toContain(`to ${target}`)
    expect(queryFile<{ name: string }>(target, 'SELECT name FROM workspaces').map((w) => w.name)).toContain('acme')
    const again = runCli(['backup', target], env)
    expect(again.status).toBe(2)
    expect(again.stderr).toContain('already exists')
  })

  it('stops with a message naming a bad environment variable', () => {
    const result = runCli(['migrate'], { ...env, PORT: 'eighty' })
    expect(result.status).toBe(2)
    expect(result.stderr).toMatch(/PORT:/)
  })

  it('creates the default workspace on the first serve and prints its key once', async () => {
    const fresh = { DATABASE_PATH: join(dir.path, 'first.db'), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' }
    const first = spawnProcess(join('node_modules', '.bin', 'tsx'), ['src/cli.ts', 'serve'], fresh)
    const keyLine = await first.waitForLine(/API key \(shown only this once/)
    const port = listeningPort(await first.waitForLine(/"msg":"listening"/))
    const key = /wag_\w+/.exec(keyLine)![0]
    const response = await fetch(`http://127.0.0.1:${port}/v1/workspace`, {
      headers: { authorization: `Bearer ${key}` },
    })
    expect(await response.json()).toMatchObject({ name: 'default', plan: 'free' })
    expect(await first.stop()).toBe(0)

    const second = spawnProcess(join('node_modules', '.bin', 'tsx'), ['src/cli.ts', 'serve'], fresh)
    await second.waitForLine(/"msg":"listening"/)
    await second.stop()
    expect(second.output()).not.toContain('shown only this once')
  })

  it('stops with one line on a busy port, before it creates anything, and says where it listens otherwise', async () => {
    const busy = await startLoopbackServer((_req, res) => res.end())
    const fresh = {
      DATABASE_PATH: join(dir.path, 'busy.db'),
      PORT: String(busy.port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    }
    const refused = spawnProcess(join('node_modules', '.bin', 'tsx'), ['src/cli.ts', 'serve'], fresh)
    const code = await new Promise((resolve) =>
      refused.child.exitCode !== null ? resolve(refused.child.exitCode) : refused.child.once('exit', resolve),
    )
    expect(code).toBe(1)
    await busy.close()
    expect(refused.output()).toContain(
      `Port ${busy.port} on 127.0.0.1 is already in use: stop what listens there, or set PORT`,
    )
    expect(refused.output()).not.toContain('API key')
    expect(refused.output()).not.toMatch(/\n\s+at /) // no stack trace
    expect(queryFile(fresh.DATABASE_PATH, 'SELECT name FROM workspaces')).toEqual([])

    const started = spawnProcess(join('node_modules', '.bin', 'tsx'), ['src/cli.ts', 'serve'], { ...fresh, PORT: '0' })
    const line = JSON.parse(await started.waitForLine(/"msg":"listening"/)) as Record<string, string>
    expect(line.panel).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/panel$/)
    expect(line.docs).toBe(line.panel!.replace('/panel', '/docs'))
    expect(await started.stop()).toBe(0)
  })
})
