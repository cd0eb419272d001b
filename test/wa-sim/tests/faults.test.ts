import { DisconnectReason } from '@whiskeysockets/baileys'
import type { WASocket } from '@whiskeysockets/baileys'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { WhatsAppSimulator } from '../simulator'
import type { AuthStore } from './harness'
import { closeSocket, memoryAuth, nextClose, openSocket, pairByQr } from './harness'

const PHONE = '15554000001'

describe('faults produce the Baileys disconnect reasons a gateway must handle', () => {
  let sim: WhatsAppSimulator
  let auth: AuthStore
  let sock: WASocket | undefined
  beforeAll(async () => {
    sim = await WhatsAppSimulator.start({ qrRefs: 2 })
    const paired = await pairByQr(sim, PHONE)
    auth = paired.auth
    closeSocket(paired.sock)
  })
  afterEach(() => {
    sim.account(PHONE).clearFaults()
    closeSocket(sock)
    sock = undefined
  })
  afterAll(async () => {
    await sim.stop()
  })

  const reconnect = async (extra = {}): Promise<WASocket> => {
    const outcome = await openSocket(sim, auth, extra)
    if (!outcome.open) throw new Error(`reconnect failed: ${outcome.code}`)
    sock = outcome.sock
    return outcome.sock
  }

  it.each([
    ['drop', DisconnectReason.connectionClosed],
    ['conflict', DisconnectReason.connectionReplaced],
    ['restart', DisconnectReason.restartRequired],
  ] as const)('%s closes the socket with %i', async (kind, code) => {
    const socket = await reconnect()
    const closed = nextClose(socket)
    sim.account(PHONE).fault(kind)
    expect((await closed).code).toBe(code)
    expect(sim.account(PHONE).linked).toBe(true)
  })

  it('refuse-login answers the next logins with 401 until cleared', async () => {
    sim.account(PHONE).fault('refuse-login')
    const refused = await openSocket(sim, auth)
    expect(refused.open).toBe(false)
    expect(refused.code).toBe(DisconnectReason.loggedOut)
    sim.account(PHONE).clearFaults()
    await reconnect()
  })

  it('unresponsive makes queries time out (rc14 resolves a timed-out query with undefined)', async () => {
    const socket = await reconnect({ defaultQueryTimeoutMs: 300 })
    const ping = () => ({
      tag: 'iq',
      attrs: { to: 's.whatsapp.net', type: 'get', xmlns: 'w:p' },
      content: [{ tag: 'ping', attrs: {} }],
    })
    expect((await socket.query(ping()))?.attrs.type).toBe('result')
    sim.account(PHONE).fault('unresponsive')
    const started = Date.now()
    // waitForMessage catches its own timedOut (408) Boom and returns undefined instead of throwing
    expect(await socket.query(ping())).toBeUndefined()
    expect(Date.now() - started).toBeGreaterThanOrEqual(290)
    sim.account(PHONE).clearFaults()
    expect((await socket.query(ping()))?.attrs.type).toBe('result')
  })

  it("counts the queries a client asks in its stats, not its keep-alive pings (they come on Baileys' timer)", async () => {
    const socket = await reconnect()
    const iqs = () => sim.account(PHONE).stats().iqs
    const before = iqs()
    for (let i = 0; i < 20; i++) {
      const pong = await socket.query({
        tag: 'iq',
        attrs: { to: 's.whatsapp.net', type: 'get', xmlns: 'w:p' },
        content: [{ tag: 'ping', attrs: {} }],
      })
      expect(pong?.attrs.type).toBe('result')
    }
    await socket.fetchBlocklist()
    // The blocklist query counts; the 20 pings do not (login's own queries may still add a few).
    expect(iqs() - before).toBeGreaterThanOrEqual(1)
    expect(iqs() - before).toBeLessThan(20)
  })

  it('QR refs running out makes Baileys give up with timedOut (408)', async () => {
    const qrs: string[] = []
    const outcome = await openSocket(sim, memoryAuth(), { qrTimeout: 100 }, (qr) => qrs.push(qr))
    expect(outcome.open).toBe(false)
    expect(qrs).toHaveLength(2)
    expect(outcome.code).toBe(DisconnectReason.timedOut)
    expect(outcome.message).toBe('QR refs attempts ended')
  })

  it('logout (device removed by the phone) gives loggedOut (401) and unlinks the account', async () => {
    const socket = await reconnect()
    const closed = nextClose(socket)
    sim.account(PHONE).fault('logout')
    expect((await closed).code).toBe(DisconnectReason.loggedOut)
    expect(sim.account(PHONE).linked).toBe(false)
    const again = await openSocket(sim, auth)
    expect(again.code).toBe(DisconnectReason.loggedOut)
  })

  it('the client logout() unlinks its device and later logins are refused', async () => {
    const paired = await pairByQr(sim, '15554000002')
    const closed = nextClose(paired.sock)
    await paired.sock.logout()
    expect((await closed).code).toBe(DisconnectReason.loggedOut)
    expect(sim.account('15554000002').linked).toBe(false)
    // Baileys wipes nothing itself: the old credentials are simply refused now
    const again = await openSocket(sim, paired.auth)
    expect(again.open).toBe(false)
    expect(again.code).toBe(DisconnectReason.loggedOut)
    expect(sim.account('15554000002').stats().connections).toBe(2)
  })
})
