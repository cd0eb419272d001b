import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import { tempDir } from '../../support/temp-dir'

describe('restarting the gateway on the same database file', () => {
  const dir = tempDir()
  const databasePath = join(dir.path, 'gateway.db')
  let first: SimulatedGateway
  let second: SimulatedGateway
  let connectedId: string
  let pendingId: string

  let loginsBefore: number

  // The restart happens once, here; each test then checks one consequence of it.
  beforeAll(async () => {
    first = await startSimulatedGateway({ databasePath })
    connectedId = await first.pairByQr('survivor', '15550004001')
    pendingId = (await first.connect({ sessionName: 'half-paired' })).body.sessionId
    const account = first.sim.account('15550004001')
    loginsBefore = account.stats().logins
    await first.stopGateway()
    await vi.waitFor(() => expect(account.online).toBe(false))
    second = await startSimulatedGateway({ databasePath, reuse: { sim: first.sim, control: first.control } })
  })
  afterAll(async () => {
    await second?.stopGateway()
    await first.close()
    dir.cleanup()
  })

  it('reconnects every session with credentials by itself, without a QR', async () => {
    const account = first.sim.account('15550004001')
    const session = await second.waitForStatus(connectedId, 'connected')
    expect(session).toMatchObject({ sessionName: 'survivor', number: '15550004001', connected: true })
    expect(account.stats().logins).toBe(loginsBefore + 1)
    expect(first.sim.pendingPairings()).toEqual([])
  })

  it('expires a pairing that was under way when the old process stopped', async () => {
    const session = (await second.listSessions()).find((s) => s.sessionId === pendingId)
    expect(session).toMatchObject({ status: 'expired', statusReason: 'gateway_restarted' })
  })

  it('closed the sockets on stop without logging out', () => {
    expect(first.sim.account('15550004001').linked).toBe(true)
    expect(first.sim.violations()).toEqual([])
  })
})
