import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { createApiKey, revokeApiKey } from '../../src/services/api-keys'
import { startTestGateway, type TestGateway } from '../support/gateway'
import { queryFile, writeFileElsewhere } from '../support/sqlite-file'

/** The gateway caches key → workspace in memory; these pin down that the cache never outlives a revocation. */
describe('API key cache', () => {
  const open: TestGateway[] = []
  const start = async (databasePath?: string) => {
    const t = await startTestGateway({ databasePath })
    open.push(t)
    return t
  }
  afterEach(async () => {
    for (const t of open.splice(0).reverse()) await t.close()
  })
  const workspaceWith = (t: TestGateway, key: string) =>
    t.request('/v1/workspace', { headers: { authorization: `Bearer ${key}` } })

  it('refuses a cached key from the next event-loop turn after another connection revokes it', async () => {
    const t = await start()
    const issued = createApiKey(t.gateway.context, { workspace: 'test' })
    for (let i = 0; i < 3; i++) expect((await workspaceWith(t, issued.key)).status).toBe(200)
    await writeFileElsewhere(t.databasePath, 'UPDATE api_keys SET revoked_at = ? WHERE id = ?', Date.now(), issued.id)
    expect((await workspaceWith(t, issued.key)).status).toBe(401)
    expect((await workspaceWith(t, t.key)).status).toBe(200)
  })

  it('keeps two gateways apart: a revoke through one is seen by it at once and by the other from the next turn', async () => {
    const a = await start()
    const b = await start(a.databasePath)
    const issued = createApiKey(a.gateway.context, { workspace: 'test' })
    expect((await workspaceWith(a, issued.key)).status).toBe(200)
    expect((await workspaceWith(b, issued.key)).status).toBe(200)
    revokeApiKey(a.gateway.context, { id: issued.id })
    // Same turn, same connection: the gateway's own write is seen by its very next read.
    expect((await workspaceWith(a, issued.key)).status).toBe(401)
    await new Promise((resolve) => setImmediate(resolve)) // b sees a's commit from its next turn
    expect((await workspaceWith(b, issued.key)).status).toBe(401)
  })

  it('answers while another connection holds the write lock: last use is recorded after the request', async () => {
    const t = await start()
    const issued = createApiKey(t.gateway.context, { workspace: 'test' })
    const locker = new Database(t.databasePath)
    locker.exec('BEGIN IMMEDIATE')
    try {
      const started = performance.now()
      expect((await workspaceWith(t, issued.key)).status).toBe(200)
      // On the request path the stamp would wait for busy_timeout (5 s) and then fail.
      expect(performance.now() - started).toBeLessThan(1_000)
    } finally {
      locker.exec('COMMIT')
      locker.close()
    }
    await t.gateway.stop() // flushes pending stamps
    const [row] = queryFile<{ last_used_at: number | null }>(
      t.databasePath,
      'SELECT last_used_at FROM api_keys WHERE id = ?',
      issued.id,
    )
    expect(row!.last_used_at).toBeGreaterThan(Date.now() - 60_000)
  })
})
