import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DatabaseInUseError, lockDatabaseFile } from '../../src/db/lock'
import { listeningPort, spawnProcess, type Spawned } from '../support/process'
import { queryFile, writeFileElsewhere } from '../support/sqlite-file'
import { tempDir } from '../support/temp-dir'

/**
 * One gateway per database file: start-up recovery (unsent sends marked failed, their keys
 * released) assumes the previous process is dead, so a second `serve` on a file a live gateway
 * holds must stop before touching it. Real processes (node itself, not the tsx wrapper, so that
 * SIGKILL reaches the process that holds the lock).
 */
describe('the database lock', { timeout: 120_000 }, () => {
  const dir = tempDir()
  const databasePath = join(dir.path, 'data', 'gateway.db')
  const started: Spawned[] = []
  afterAll(async () => {
    for (const gateway of started) await gateway.stop()
    dir.cleanup()
  })

  const serve = () => {
    const gateway = spawnProcess(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
      DATABASE_PATH: databasePath,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    })
    started.push(gateway)
    return gateway
  }
  const exited = (gateway: Spawned) =>
    new Promise<number | null>((resolve) => {
      if (gateway.child.exitCode !== null) resolve(gateway.child.exitCode)
      else gateway.child.once('exit', (code) => resolve(code))
    })
  /** A send the first gateway has under way: the key it claimed, no message yet. */
  const keysUnderWay = () =>
    queryFile<{ key: string }>(databasePath, 'SELECT key FROM idempotency_keys WHERE message_id IS NULL').map(
      (row) => row.key,
    )

  it('is taken once per file, in one process too, and again once released; a database in memory needs none', async () => {
    const path = join(dir.path, 'embedded', 'app.db')
    const lock = await lockDatabaseFile(path)
    expect(lock?.path).toBe(`${path}.lock`)
    const second = await lockDatabaseFile(path).catch((error: unknown) => error)
    expect(second).toBeInstanceOf(DatabaseInUseError)
    expect((second as Error).message).toContain(`${path} is in use by another gateway`)
    // Another file is another lock.
    const other = await lockDatabaseFile(join(dir.path, 'embedded', 'other.db'))
    other?.release()
    lock?.release()
    const again = await lockDatabaseFile(path)
    expect(again).toBeDefined()
    again?.release()
    expect(await lockDatabaseFile(':memory:')).toBeUndefined()
  })

  it('refuses a second gateway on a file a live one holds, leaving its sends alone; after a kill -9 the next starts', async () => {
    const first = serve()
    const port = listeningPort(await first.waitForLine(/"msg":"listening"/, 60_000))
    const [workspace] = queryFile<{ id: string }>(databasePath, 'SELECT id FROM workspaces')
    await writeFileElsewhere(
      databasePath,
      "INSERT INTO idempotency_keys (workspace_id, key, request_hash, session_id, message_id, created_at) VALUES (?, 'under-way', 'h', 'ses_x', NULL, 0)",
      workspace!.id,
    )

    const second = serve()
    const outcome = await Promise.race([
      exited(second),
      second.waitForLine(/"msg":"listening"/, 60_000).then(() => 'listening'),
    ])
    expect(outcome).toBe(1)
    const said = second.output()
    expect(said).toContain(databasePath)
    expect(said).toContain(`${databasePath}.lock`)
    expect(said).toMatch(/another gateway/i)
    expect(said).not.toMatch(/"msg":"listening"/)
    // It touched nothing: the first's send under way is still its own, and the first still serves.
    expect(keysUnderWay()).toEqual(['under-way'])
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200)
    // Nor may migrations change the tables under it: `migrate` waits for no one and says why.
    const migrate = spawnProcess(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'migrate'], {
      DATABASE_PATH: databasePath,
    })
    started.push(migrate)
    expect(await exited(migrate)).toBe(1)
    expect(migrate.output()).toContain(`${databasePath}.lock`)
    expect(migrate.output()).toMatch(/stop it first/)

    first.child.kill('SIGKILL')
    await exited(first)
    const third = serve()
    await third.waitForLine(/"msg":"listening"/, 60_000)
    // Now it is the only one: start-up recovery released the dead process's key.
    expect(keysUnderWay()).toEqual([])
    expect(await third.stop()).toBe(0)

    // A clean stop lets the next one in as well.
    const fourth = serve()
    await fourth.waitForLine(/"msg":"listening"/, 60_000)
    expect(await fourth.stop()).toBe(0)
  })
})
