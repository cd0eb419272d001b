import { BufferJSON, type WASocket } from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ControlApi } from '../control-api'
import { MINTED_PRE_KEYS, type MintedDevice } from '../mint'
import { WhatsAppSimulator } from '../simulator'
import { type AuthStore, closeSocket, memoryAuth, openSocket } from './harness'

const ALICE = '15553300101'

/** The minted auth state loaded the way a store reads it back: through BufferJSON. */
const loadMinted = async (device: MintedDevice): Promise<AuthStore> => {
  const auth = memoryAuth()
  auth.creds = JSON.parse(device.creds, BufferJSON.reviver)
  const entries = Object.fromEntries(
    Object.entries(device.keys).map(([type, byId]) => [
      type,
      Object.fromEntries(Object.entries(byId).map(([id, text]) => [id, JSON.parse(text, BufferJSON.reviver)])),
    ]),
  )
  await auth.keys.set(entries)
  return auth
}

describe('minted linked devices: logged in by a real Baileys client without a QR', () => {
  let sim: WhatsAppSimulator
  let control: ControlApi
  let sock: WASocket | undefined
  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
    control = await ControlApi.start(sim)
    sim.addContact(ALICE)
  })
  afterAll(async () => {
    closeSocket(sock)
    await control.stop()
    await sim.stop()
  })

  it('logs in, uploads no pre-keys, sends to a contact and decrypts the contact’s answer', async () => {
    const [device] = sim.mintLinkedDevices(1)
    const auth = await loadMinted(device!)
    const login = await openSocket(sim, auth)
    sock = login.sock
    expect(login.open).toBe(true)
    expect(sock.user?.id).toBe(`${device!.phone}:1@s.whatsapp.net`)

    const sent = await sock.sendMessage(`${ALICE}@s.whatsapp.net`, { text: 'from a minted device' })
    const received = await sim.contact(ALICE).waitForMessage((m) => m.id === sent?.key.id)
    expect(received.from).toBe(device!.phone)

    // The contact starts its session from one of the minted pre-keys, whose private half only the device holds
    const answered = new Promise<string>((resolve) =>
      sock!.ev.on('messages.upsert', ({ messages }) => {
        const text = messages.find((m) => !m.key.fromMe)?.message?.conversation
        if (text) resolve(text)
      }),
    )
    await sim.contact(ALICE).send({ text: 'answer to the minted device' }, { to: device!.phone })
    expect(await answered).toBe('answer to the minted device')
    expect(auth.creds.nextPreKeyId).toBe(MINTED_PRE_KEYS + 1) // nothing uploaded at login
    expect(sim.account(device!.phone).stats().logins).toBe(1)
    expect(sim.violations()).toEqual([])
  })

  it('refuses a minted device whose noise key is not the one it linked with', async () => {
    const [device] = sim.mintLinkedDevices(1)
    const auth = await loadMinted(device!)
    auth.creds = { ...auth.creds, noiseKey: memoryAuth().creds.noiseKey }
    const login = await openSocket(sim, auth)
    expect(login.open).toBe(false)
    expect(login.code).toBe(401)
    closeSocket(login.sock)
  })

  it('mints through the control API, a bounded count per request', async () => {
    const post = (body: unknown) =>
      fetch(new URL('/accounts/mint', control.url), { method: 'POST', body: JSON.stringify(body) })
    const minted = (await (await post({ count: 3 })).json()) as MintedDevice[]
    expect(new Set(minted.map((d) => d.phone)).size).toBe(3)
    for (const d of minted) expect(sim.account(d.phone).linked).toBe(true)
    for (const count of [0, 1_001, 2.5, '3']) expect((await post({ count })).status).toBe(400)
  })
})
