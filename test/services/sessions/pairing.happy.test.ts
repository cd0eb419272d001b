import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulatedGateway, WEBHOOK, type SimulatedGateway } from '../../support/simulated-gateway'

describe('pairing a session through Baileys and the simulator', () => {
  let t: SimulatedGateway
  beforeAll(async () => {
    t = await startSimulatedGateway()
  })
  afterAll(() => t.close())

  it('pairs by QR: pending with a live QR, then connected with the scanned number', async () => {
    const events: { type: string; payload: any }[] = []
    t.gateway.context.events.on('session.qr', (payload) => events.push({ type: 'session.qr', payload }))
    t.gateway.context.events.on('session.status', (payload) => events.push({ type: 'session.status', payload }))
    const { status, body } = await t.connect({ sessionName: 'sales' })
    expect(status).toBe(200)
    expect(body).toMatchObject({ status: 'pending', webhookUrl: WEBHOOK, webhookMessages: true })
    expect(body.sessionId).toMatch(/^ses_[a-z2-7]{24}$/)
    expect(body.webhookSecret).toMatch(/^whsec_/)
    expect(body.qrCode).toMatch(/^https:\/\/wa\.me\/settings\/linked_devices#|^[^,]+,[^,]+,[^,]+,[^,]+/)
    expect(body.pairingCode).toBeUndefined()

    t.sim.scan(body.qrCode, '15550001001')
    const session = await t.waitForStatus(body.sessionId, 'connected')
    expect(session).toMatchObject({ sessionName: 'sales', number: '15550001001', connected: true, statusReason: null })
    expect(Date.parse(session.lastSeen!)).not.toBeNaN()
    expect(t.sim.account('15550001001').linked).toBe(true)
    expect(t.sim.violations()).toEqual([])
    // The in-process event stream the webhook outbox will deliver.
    const mine = events.filter((e) => e.payload.sessionId === body.sessionId)
    expect(mine[0]).toMatchObject({ type: 'session.qr', payload: { qr: body.qrCode } })
    expect(
      mine.filter((e) => e.type === 'session.status').map((e) => [e.payload.previousStatus, e.payload.status]),
    ).toEqual([['pending', 'connected']])
  })

  it('pairs by pairing code: the phone types the code and the session logs in', async () => {
    const { status, body } = await t.connect({ sessionName: 'support', mode: 'pairing', pairingNumber: '15550001002' })
    expect(status).toBe(200)
    expect(body.pairingCode).toMatch(/^[A-Z0-9]{8}$/)
    expect(body.status).toBe('pending')

    await t.sim.enterPairingCode('15550001002', body.pairingCode)
    const session = await t.waitForStatus(body.sessionId, 'connected')
    expect(session.number).toBe('15550001002')
    expect(t.sim.violations()).toEqual([])
  })

  it('lists both sessions with their fields', async () => {
    const sessions = await t.listSessions()
    expect(sessions.map((s) => [s.sessionName, s.status, s.connected])).toEqual([
      ['sales', 'connected', true],
      ['support', 'connected', true],
    ])
    for (const s of sessions) {
      expect(Object.keys(s).sort()).toEqual(
        [
          'autoRejectCalls',
          'connected',
          'history',
          'lastSeen',
          'number',
          'proxyUrl',
          'sendPacing',
          'sessionId',
          'sessionName',
          'status',
          'statusReason',
          'webhookEvents',
          'webhookMessages',
          'webhookUrl',
        ].sort(),
      )
    }
  })
})
