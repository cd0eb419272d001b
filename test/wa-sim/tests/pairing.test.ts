import { DisconnectReason } from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WhatsAppSimulator } from '../simulator'
import { closeSocket, memoryAuth, openSocket, pairByQr } from './harness'

describe('pairing and login', () => {
  let sim: WhatsAppSimulator
  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
  })
  afterAll(async () => {
    await sim.stop()
  })

  it('pairs by QR, restarts with 515, then logs in with stored credentials', async () => {
    const { sock, phone, firstClose, auth } = await pairByQr(sim, '15551230001')
    expect(firstClose).toBe(DisconnectReason.restartRequired)
    expect(phone).toBe('15551230001')
    expect(sock.user?.id.startsWith('15551230001:')).toBe(true)
    expect(auth.creds.me?.lid?.split(':')[0]?.split('@')[0]).toBe(sim.account(phone).lid)
    expect(sim.account(phone).stats().logins).toBe(1)
    expect(sim.violations()).toEqual([])
    closeSocket(sock)
  })

  it('pairs by pairing code entered on the phone', async () => {
    const auth = memoryAuth()
    let code: Promise<string> | undefined
    const first = openSocket(sim, auth, {}, (_qr, sock) => {
      code ??= sock.requestPairingCode('15551230002')
    })
    const shown = await new Promise<string>((resolve) => {
      const wait = () => (code ? code.then(resolve) : setTimeout(wait, 10))
      wait()
    })
    expect(shown).toMatch(/^[A-Z0-9]{8}$/)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(sim.pendingPairings().some((p) => p.pairingCodePhone === '15551230002')).toBe(true)
    const linked = await sim.enterPairingCode('15551230002', shown)
    expect(linked.phone).toBe('15551230002')
    expect((await first).code).toBe(DisconnectReason.restartRequired)
    const second = await openSocket(sim, auth)
    expect(second.open).toBe(true)
    expect(second.sock.user?.id.startsWith('15551230002:')).toBe(true)
    closeSocket(second.sock)
  })

  it('runs two accounts at once, each with its own number, LID and login', async () => {
    const [a, b] = await Promise.all([pairByQr(sim, '15551230003'), pairByQr(sim, '15551230004')])
    expect(a.sock.user?.id.split(':')[0]).toBe('15551230003')
    expect(b.sock.user?.id.split(':')[0]).toBe('15551230004')
    expect(sim.account('15551230003').lid).not.toBe(sim.account('15551230004').lid)
    expect(sim.account('15551230003').online && sim.account('15551230004').online).toBe(true)
    // They can talk to each other: the server relays each device's <enc>
    const received = new Promise<string | null | undefined>((resolve) =>
      b.sock.ev.on('messages.upsert', ({ messages }) => {
        const m = messages.find((x) => !x.key.fromMe)
        if (m) resolve(m.message?.conversation ?? m.message?.extendedTextMessage?.text)
      }),
    )
    await a.sock.sendMessage('15551230004@s.whatsapp.net', { text: 'account to account' })
    expect(await received).toBe('account to account')
    expect(sim.violations()).toEqual([])
    closeSocket(a.sock)
    closeSocket(b.sock)
  })

  it('refuses login for an unknown device with 401', async () => {
    const auth = memoryAuth()
    auth.creds.registered = true
    auth.creds.me = { id: '15559990000:1@s.whatsapp.net', name: 'x' }
    const outcome = await openSocket(sim, auth)
    expect(outcome.open).toBe(false)
    expect(outcome.code).toBe(DisconnectReason.loggedOut)
  })
})
