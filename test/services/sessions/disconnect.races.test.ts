import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { authRowCount } from '../../support/sqlite-file'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import { tempDir } from '../../support/temp-dir'
import { setTimeout as sleep } from 'node:timers/promises'

/** The simulator's control API behind a proxy whose GET /config answers slowly (the engine waits on it). */
async function slowConfigProxy(target: string, delayMs: number) {
  const server = http.createServer(async (req, res) => {
    if (req.url === '/config') await sleep(delayMs)
    const answer = await fetch(new URL(req.url ?? '/', target))
    res
      .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' })
      .end(Buffer.from(await answer.arrayBuffer()))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}

describe('a client’s disconnect always wins over a pairing under way', () => {
  let t: SimulatedGateway
  let slow: SimulatedGateway
  let proxy: Awaited<ReturnType<typeof slowConfigProxy>>

  beforeAll(async () => {
    t = await startSimulatedGateway()
    proxy = await slowConfigProxy(t.control.url, 400)
    slow = await startSimulatedGateway({
      reuse: { sim: t.sim, control: t.control },
      config: { simulatorUrl: proxy.url },
    })
  })
  afterAll(async () => {
    await slow.stopGateway()
    await proxy.close()
    await t.close()
  })

  const sessionNamed = async (gateway: SimulatedGateway, name: string) => {
    for (;;) {
      const found = (await gateway.listSessions()).find((s) => s.sessionName === name)
      if (found) return found
      await sleep(10)
    }
  }

  it('DELETE while connect still waits for its first QR: disconnected, and connect answers 409 saying so', async () => {
    const connecting = slow.connect({ sessionName: 'impatient' })
    const session = await sessionNamed(slow, 'impatient')
    const deleted = await slow.request(`/v1/session/disconnect/${session.sessionId}`, { method: 'DELETE' })
    expect(deleted.status).toBe(200)
    const answer = await connecting
    expect(answer.status).toBe(409)
    expect(answer.body).toMatchObject({ error: 'session_not_connected', details: { status: 'disconnected' } })
    expect(answer.body.message).toMatch(/disconnected/)
    await sleep(300)
    const after = (await slow.listSessions()).find((s) => s.sessionId === session.sessionId)
    expect(after).toMatchObject({ status: 'disconnected', statusReason: 'client_request' })
    expect(t.sim.pendingPairings()).toEqual([])
  })

  it('a QR handed out before the DELETE cannot bring the session back', async () => {
    const { body } = await t.connect({ sessionName: 'scanned-late' })
    await t.request(`/v1/session/disconnect/${body.sessionId}`, { method: 'DELETE' })
    try {
      t.sim.scan(body.qrCode, '15550016001')
    } catch {
      // the closed connection's QR may simply be unknown by now
    }
    await sleep(300)
    const after = (await t.listSessions()).find((s) => s.sessionId === body.sessionId)
    expect(after).toMatchObject({ status: 'disconnected', connected: false })
  })
})

describe('disconnecting a session that is offline at that moment', () => {
  const dir = tempDir()
  const databasePath = join(dir.path, 'gateway.db')
  let t: SimulatedGateway

  beforeAll(async () => {
    t = await startSimulatedGateway({ databasePath })
  })
  afterAll(async () => {
    await t.close()
    dir.cleanup()
  })

  it('keeps the credentials until the unlink reaches WhatsApp, showing disconnected throughout', async () => {
    const id = await t.pairByQr('offline', '15550016101')
    const account = t.sim.account('15550016101')
    account.fault('unreachable')
    await t.waitForStatus(id, 'connecting')
    const deleted = await t.request(`/v1/session/disconnect/${id}`, { method: 'DELETE' })
    expect(((await deleted.json()) as any).status).toBe('disconnected')
    await sleep(500) // several reconnect attempts at the test's 50 ms backoff base
    expect(account.linked).toBe(true)
    expect(authRowCount(databasePath, id)).toBeGreaterThan(0)
    expect((await t.listSessions()).find((s) => s.sessionId === id)?.status).toBe('disconnected')

    account.clearFaults()
    await vi.waitFor(() => expect(account.linked).toBe(false), { timeout: 10_000 })
    await vi.waitFor(() => expect(authRowCount(databasePath, id)).toBe(0))
    expect((await t.listSessions()).find((s) => s.sessionId === id)).toMatchObject({
      status: 'disconnected',
      statusReason: 'client_request',
    })
    expect(t.sim.violations()).toEqual([])
  })

  it('finishes the unlink after a restart', async () => {
    const id = await t.pairByQr('offline-restart', '15550016102')
    const account = t.sim.account('15550016102')
    account.fault('unreachable')
    await t.waitForStatus(id, 'connecting')
    await t.request(`/v1/session/disconnect/${id}`, { method: 'DELETE' })
    await t.stopGateway()
    expect(authRowCount(databasePath, id)).toBeGreaterThan(0)
    account.clearFaults()

    const restarted = await startSimulatedGateway({ databasePath, reuse: { sim: t.sim, control: t.control } })
    try {
      await vi.waitFor(() => expect(account.linked).toBe(false), { timeout: 10_000 })
      await vi.waitFor(() => expect(authRowCount(databasePath, id)).toBe(0))
      expect((await restarted.listSessions()).find((s) => s.sessionId === id)?.status).toBe('disconnected')
    } finally {
      await restarted.stopGateway()
    }
  })
})
