import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { authRowCount } from '../../support/sqlite-file'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import { setTimeout as sleep } from 'node:timers/promises'

describe('a connected session when the network misbehaves', () => {
  let t: SimulatedGateway
  beforeAll(async () => {
    t = await startSimulatedGateway()
  })
  afterAll(() => t.close())

  it('reconnects by itself after the connection drops', async () => {
    const id = await t.pairByQr('drop', '15550003001')
    const account = t.sim.account('15550003001')
    const before = account.stats().logins
    account.fault('drop')
    await t.waitForStatus(id, 'connecting')
    const session = await t.waitForStatus(id, 'connected')
    expect(session.statusReason).toBeNull()
    expect(account.stats().logins).toBe(before + 1)
    expect(t.sim.pendingPairings()).toEqual([])
  })

  it('goes logged_out and wipes its credentials when the phone removes the device', async () => {
    const id = await t.pairByQr('removed', '15550003002')
    expect(authRowCount(t.databasePath, id)).toBeGreaterThan(0)
    t.sim.account('15550003002').fault('logout')
    const session = await t.waitForStatus(id, 'logged_out')
    expect(session).toMatchObject({ statusReason: 'device_removed', connected: false })
    expect(authRowCount(t.databasePath, id)).toBe(0)
  })

  it('goes logged_out when the network refuses the credentials on reconnect', async () => {
    const id = await t.pairByQr('refused', '15550003003')
    const account = t.sim.account('15550003003')
    account.fault('refuse-login')
    account.fault('drop')
    const session = await t.waitForStatus(id, 'logged_out')
    expect(session.statusReason).toBe('device_removed')
    expect(authRowCount(t.databasePath, id)).toBe(0)
  })

  it('does not fight back when another client replaces the connection (440)', async () => {
    const id = await t.pairByQr('replaced', '15550003004')
    const account = t.sim.account('15550003004')
    account.fault('conflict')
    const session = await t.waitForStatus(id, 'disconnected')
    expect(session.statusReason).toBe('connection_replaced')
    const attempts = account.stats().connections
    await sleep(1_500) // many backoff periods at the test's 50 ms base
    expect(account.stats().connections).toBe(attempts)
    // Credentials are kept: the device was not unlinked, only displaced.
    expect(authRowCount(t.databasePath, id)).toBeGreaterThan(0)
  })
})

describe('the restart WhatsApp asks for (515)', () => {
  let t: SimulatedGateway
  // A backoff this long would take at least 2.5 s: reconnecting at once is unmistakable.
  beforeAll(async () => {
    t = await startSimulatedGateway({ config: { reconnect: { baseMs: 5_000, maxMs: 10_000 } } })
  })
  afterAll(() => t.close())

  it('reconnects at once, not after the backoff', async () => {
    const id = await t.pairByQr('restart', '15550003005')
    const account = t.sim.account('15550003005')
    const logins = account.stats().logins
    const restartedAt = Date.now()
    account.fault('restart')
    await vi.waitFor(() => expect(account.stats().logins).toBe(logins + 1), { timeout: 2_000, interval: 10 })
    expect(Date.now() - restartedAt).toBeLessThan(2_000)
    expect((await t.waitForStatus(id, 'connected')).connected).toBe(true)
    expect(t.sim.violations()).toEqual([])
  })
})

describe('a pairing nobody completes', () => {
  let t: SimulatedGateway
  beforeAll(async () => {
    t = await startSimulatedGateway({ simulator: { qrRefs: 2 }, config: { qrTimeoutMs: 200 } })
  })
  afterAll(() => t.close())

  it('expires when the QR codes run out, then re-pairs under the same id with a new QR', async () => {
    const first = await t.connect({ sessionName: 'lobby' })
    expect(first.status).toBe(200)
    const expired = await t.waitForStatus(first.body.sessionId, 'expired')
    expect(expired.statusReason).toBe('qr_timeout')

    const second = await t.connect({ sessionName: 'lobby' })
    expect(second.status).toBe(200)
    expect(second.body.sessionId).toBe(first.body.sessionId)
    expect(second.body.qrCode).not.toBe(first.body.qrCode)
    expect(second.body.status).toBe('pending')
    t.sim.scan(second.body.qrCode, '15550003101')
    await t.waitForStatus(first.body.sessionId, 'connected')
    expect(await t.listSessions()).toHaveLength(1)
  })

  it('expires an unused pairing code the same way', async () => {
    const { body } = await t.connect({ sessionName: 'code', mode: 'pairing', pairingNumber: '15550003102' })
    const expired = await t.waitForStatus(body.sessionId, 'expired')
    expect(expired.statusReason).toBe('pairing_code_timeout')
  })
})

describe('DELETE /v1/session/disconnect/{session_id}', () => {
  let t: SimulatedGateway
  beforeAll(async () => {
    t = await startSimulatedGateway()
  })
  afterAll(() => t.close())

  const disconnect = async (id: string) => {
    const response = await t.request(`/v1/session/disconnect/${id}`, { method: 'DELETE' })
    return { status: response.status, body: (await response.json()) as any }
  }

  it('unlinks the device at the network, wipes credentials and is idempotent', async () => {
    const id = await t.pairByQr('to-unlink', '15550003201')
    const first = await disconnect(id)
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({
      sessionId: id,
      status: 'disconnected',
      connected: false,
      statusReason: 'client_request',
    })
    await vi.waitFor(() => expect(t.sim.account('15550003201').linked).toBe(false))
    expect(authRowCount(t.databasePath, id)).toBe(0)

    const again = await disconnect(id)
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
  })

  it('stops a pending pairing', async () => {
    const { body } = await t.connect({ sessionName: 'never-scanned' })
    expect((await disconnect(body.sessionId)).body.status).toBe('disconnected')
    await vi.waitFor(() => expect(t.sim.pendingPairings()).toEqual([]))
    expect((await t.listSessions()).find((s) => s.sessionId === body.sessionId)?.status).toBe('disconnected')
  })

  it('lets a disconnected session pair again under its id', async () => {
    const [session] = (await t.listSessions()).filter((s) => s.sessionName === 'to-unlink')
    const { status, body } = await t.connect({ sessionName: 'to-unlink' })
    expect(status).toBe(200)
    expect(body.sessionId).toBe(session?.sessionId)
  })
})
