import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSessionRow } from '../../support/session-row'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

describe('POST /v1/session/{id}/restart', () => {
  let t: SimulatedGateway
  beforeAll(async () => {
    t = await startSimulatedGateway()
  })
  afterAll(() => t.close())

  // As curl sends it: no body at all.
  const restart = async (id: string, key = t.key) => {
    const response = await t.request(`/v1/session/${id}/restart`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
    })
    return { status: response.status, body: (await response.json()) as any }
  }

  it('reconnects with the stored credentials: no QR, records kept, sends work again', async () => {
    t.sim.addContact('15551230001')
    const id = await t.pairByQr('stuck', '15550006001')
    const account = t.sim.account('15550006001')
    const first = await t.post('/v1/message/text', {
      sessionId: id,
      phone: '15551230001',
      message: 'before the restart',
    })
    expect(first.status).toBe(200)
    const logins = account.stats().logins

    const response = await restart(id)
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({
      sessionId: id,
      status: 'connecting',
      statusReason: 'client_restart',
      connected: false,
    })

    const session = await t.waitForStatus(id, 'connected')
    expect(session).toMatchObject({ number: '15550006001', statusReason: null })
    expect(account.stats().logins).toBe(logins + 1)
    expect(account.linked).toBe(true)
    expect(t.sim.pendingPairings()).toEqual([])
    expect((await t.get(`/v1/message/${first.body.messageId}?sessionId=${id}`)).status).toBe(200)
    const after = await t.post('/v1/message/text', {
      sessionId: id,
      phone: '15551230001',
      message: 'after the restart',
    })
    expect(after.status).toBe(200)
    expect(t.sim.violations()).toEqual([])
  })

  it('answers 409 for a session without credentials, and leaves it as it was', async () => {
    const pending = (await t.connect({ sessionName: 'half-paired' })).body.sessionId as string
    for (const [id, status] of [
      [pending, 'pending'],
      [createSessionRow(t, 'old', 'expired'), 'expired'],
      [createSessionRow(t, 'gone', 'disconnected'), 'disconnected'],
    ] as const) {
      const response = await restart(id)
      expect(response.status, status).toBe(409)
      expect(response.body).toMatchObject({ error: 'session_not_connected', details: { status } })
      expect((await t.listSessions()).find((s) => s.sessionId === id)?.status).toBe(status)
    }
  })
})
