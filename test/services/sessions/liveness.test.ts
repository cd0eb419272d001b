import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryFile } from '../../support/sqlite-file'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

/** [status, statusReason] of every session.status event of a session, in order. */
const statusEvents = (databasePath: string, sessionId: string) =>
  queryFile<{ body: string }>(
    databasePath,
    `SELECT body FROM webhook_events WHERE type = 'session.status' AND session_id = '${sessionId}' ORDER BY rowid`,
  ).map((row) => {
    const { data } = JSON.parse(row.body) as { data: { status: string; statusReason: string | null } }
    return [data.status, data.statusReason]
  })

/**
 * A session whose socket stays open while WhatsApp answers nothing (the simulator's
 * `unresponsive` fault: no iq or ping answered, no ack, nothing at all) is caught and
 * reconnected by itself, and comes back once the fault clears.
 */
describe('a connected session that stops answering', () => {
  describe('caught by the keep-alive', () => {
    const KEEPALIVE_MS = 500
    // Baileys pings every interval and closes when a tick finds no frame for interval + 5 s.
    const BOUND_MS = 2 * KEEPALIVE_MS + 5_000
    let t: SimulatedGateway
    beforeAll(async () => {
      t = await startSimulatedGateway({ config: { keepAliveIntervalMs: KEEPALIVE_MS } })
    })
    afterAll(() => t.close())

    it(`goes connected → connecting (unresponsive) within 2 × WA_KEEPALIVE_INTERVAL_MS + 5 s, then back by itself`, async () => {
      const id = await t.pairByQr('silent', '15550022001')
      const account = t.sim.account('15550022001')
      account.fault('unresponsive')
      const faultAt = Date.now()
      await t.waitForStatus(id, 'connecting', BOUND_MS + 2_000)
      const caughtAfter = Date.now() - faultAt
      expect(caughtAfter).toBeLessThanOrEqual(BOUND_MS + 500) // + the status poll's own period
      expect(caughtAfter).toBeGreaterThan(KEEPALIVE_MS) // not a reconnect for nothing
      expect((await t.listSessions()).find((s) => s.sessionId === id)).toMatchObject({
        status: 'connecting',
        statusReason: 'unresponsive',
      })
      account.clearFaults()
      const session = await t.waitForStatus(id, 'connected', BOUND_MS + 5_000)
      expect(session).toMatchObject({ statusReason: null, number: '15550022001' })
      expect(statusEvents(t.databasePath, id).slice(-2)).toEqual([
        ['connecting', 'unresponsive'],
        ['connected', null],
      ])
      expect(t.sim.violations()).toEqual([])
    }, 40_000)
  })

  describe('caught sooner when a send gets no server ack', () => {
    const KEEPALIVE_MS = 2_000
    const ACK_TIMEOUT_MS = 800
    let t: SimulatedGateway
    beforeAll(async () => {
      t = await startSimulatedGateway({
        config: { keepAliveIntervalMs: KEEPALIVE_MS, sendAckTimeoutMs: ACK_TIMEOUT_MS, queryTimeoutMs: 1_500 },
        simulator: { contacts: ['15551230001'] },
      })
    })
    afterAll(() => t.close())

    it('fails the send with no_server_ack and checks the session at once: unresponsive before the keep-alive could tell', async () => {
      const id = await t.pairByQr('no-ack', '15550022002')
      const first = await t.post('/v1/message/text', { sessionId: id, phone: '15551230001', message: 'hello' })
      await t.waitForRecord(id, first.body.messageId, (r) => r.status === 'sent')
      const account = t.sim.account('15550022002')
      account.fault('unresponsive')
      const sentAt = Date.now()
      const lost = await t.post('/v1/message/text', { sessionId: id, phone: '15551230001', message: 'into the void' })
      expect(lost.body.status).toBe('pending')
      const failed = await t.waitForRecord(id, lost.body.messageId, (r) => r.status === 'failed')
      expect(failed.statusReason).toBe('no_server_ack')
      await t.waitForStatus(id, 'connecting', 10_000)
      // Ack deadline + one sweep + one ping's wait; Baileys' own check needs more than 2 s + 5 s of silence.
      expect(Date.now() - sentAt).toBeLessThan(KEEPALIVE_MS + 5_000)
      expect((await t.listSessions()).find((s) => s.sessionId === id)?.statusReason).toBe('unresponsive')
      account.clearFaults()
      await t.waitForStatus(id, 'connected', 15_000)
      const after = await t.post('/v1/message/text', { sessionId: id, phone: '15551230001', message: 'back' })
      expect(after.status).toBe(200)
      await t.waitForRecord(id, after.body.messageId, (r) => r.status === 'sent')
    }, 40_000)
  })
})
