import type { WASocket } from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ControlApi } from '../control-api'
import { WhatsAppSimulator } from '../simulator'
import { closeSocket, openSocket, pairByQr, type AuthStore } from './harness'

const PERSONAL = '15554100001'
const BUSINESS = '15554100002'
const CONTACT = '15554100009'

/**
 * Receipts and presence a client sends are recorded per account (in process and over the control
 * API) and held to what WhatsApp takes: a read receipt must answer a message the other side sent,
 * a chat state is one <composing/> (media="audio" when recording) or <paused/>, and an account
 * presence carries the account's name.
 */
describe('receipts and presence a client sends', () => {
  let sim: WhatsAppSimulator
  let control: ControlApi
  let personal: { sock: WASocket; auth: AuthStore }
  let business: { sock: WASocket; auth: AuthStore }
  beforeAll(async () => {
    sim = await WhatsAppSimulator.start({ contacts: [CONTACT] })
    control = await ControlApi.start(sim)
    personal = await pairByQr(sim, PERSONAL)
    business = await pairByQr(sim, BUSINESS, {}, { businessName: 'Acme Support' })
  }, 60_000)
  afterAll(async () => {
    closeSocket(personal.sock)
    closeSocket(business.sock)
    await control.stop()
    await sim.stop()
  })

  const violationsSince = (count: number) => sim.violations().slice(count)
  const getJson = async (path: string) => (await fetch(`${control.url}${path}`)).json() as Promise<any>

  it('records a read receipt for messages a contact sent, with every id of its list', async () => {
    const first = await sim.contact(CONTACT).send({ text: 'one' }, { to: PERSONAL })
    const second = await sim.contact(CONTACT).send({ text: 'two' }, { to: PERSONAL })
    const before = sim.violations().length
    await personal.sock.readMessages([
      { remoteJid: `${CONTACT}@s.whatsapp.net`, id: first, fromMe: false },
      { remoteJid: `${CONTACT}@s.whatsapp.net`, id: second, fromMe: false },
    ])
    const read = await sim.account(PERSONAL).waitForReceipt((r) => r.type === 'read')
    expect(read).toMatchObject({ to: `${CONTACT}@s.whatsapp.net`, ids: [first, second] })
    expect(violationsSince(before)).toEqual([])
    const listed = await getJson(`/accounts/${PERSONAL}/receipts`)
    expect(listed.find((r: any) => r.type === 'read')).toMatchObject({ ids: [first, second] })
  })

  it('sends read-self when the account hides read receipts (the privacy iq says so)', async () => {
    sim.account(PERSONAL).setReadReceipts('none')
    closeSocket(personal.sock)
    const reopened = await openSocket(sim, personal.auth)
    if (!reopened.open) throw new Error('reconnect failed')
    personal.sock = reopened.sock
    const id = await sim.contact(CONTACT).send({ text: 'private' }, { to: PERSONAL })
    await personal.sock.readMessages([{ remoteJid: `${CONTACT}@s.whatsapp.net`, id, fromMe: false }])
    const receipt = await sim.account(PERSONAL).waitForReceipt((r) => r.ids.includes(id) && r.type.startsWith('read'))
    expect(receipt.type).toBe('read-self')
    sim.account(PERSONAL).setReadReceipts('all')
  })

  it('flags a read receipt for a message the contact never sent', async () => {
    const before = sim.violations().length
    await personal.sock.readMessages([
      { remoteJid: `${CONTACT}@s.whatsapp.net`, id: '3AFFFFFFFFFFFFFFFFFF', fromMe: false },
    ])
    await sim.account(PERSONAL).waitForReceipt((r) => r.ids.includes('3AFFFFFFFFFFFFFFFFFF'))
    expect(violationsSince(before)).toEqual([
      expect.objectContaining({
        kind: 'unknown-receipt-reference',
        detail: expect.stringContaining('3AFFFFFFFFFFFFFFFFFF'),
      }),
    ])
  })

  it('records composing, recording and paused per chat', async () => {
    const before = sim.violations().length
    const chat = `${CONTACT}@s.whatsapp.net`
    for (const state of ['composing', 'recording', 'paused'] as const) {
      await personal.sock.sendPresenceUpdate(state, chat)
      await sim.account(PERSONAL).waitForPresence((p) => p.kind === 'chatstate' && p.state === state)
    }
    expect(
      sim
        .account(PERSONAL)
        .presence()
        .filter((p) => p.kind === 'chatstate')
        .map((p) => p.kind === 'chatstate' && [p.to, p.state]),
    ).toEqual([
      [chat, 'composing'],
      [chat, 'recording'],
      [chat, 'paused'],
    ])
    expect(violationsSince(before)).toEqual([])
    const listed = await getJson(`/accounts/${PERSONAL}/presence`)
    expect(listed.filter((p: any) => p.kind === 'chatstate').map((p: any) => p.state)).toEqual([
      'composing',
      'recording',
      'paused',
    ])
  })

  it('flags malformed chat states and a nameless account presence', async () => {
    const before = sim.violations().length
    const to = `${CONTACT}@s.whatsapp.net`
    await personal.sock.sendNode({ tag: 'chatstate', attrs: { to }, content: [{ tag: 'typing', attrs: {} }] })
    await personal.sock.sendNode({
      tag: 'chatstate',
      attrs: { to },
      content: [{ tag: 'paused', attrs: { media: 'audio' } }],
    })
    await personal.sock.sendNode({ tag: 'chatstate', attrs: {}, content: [{ tag: 'composing', attrs: {} }] })
    await personal.sock.sendNode({ tag: 'presence', attrs: { type: 'available' } })
    // A personal account's device has no name here (no app-state sync): Baileys itself drops it.
    await personal.sock.sendPresenceUpdate('available')
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(violationsSince(before).map((v) => v.kind)).toEqual([
      'malformed-chatstate',
      'malformed-chatstate',
      'malformed-chatstate',
      'malformed-presence',
    ])
  })

  it('records a business account’s presence with its name (given at pairing)', async () => {
    const before = sim.violations().length
    await business.sock.sendPresenceUpdate('available')
    expect(
      await sim.account(BUSINESS).waitForPresence((p) => p.kind === 'presence' && p.type === 'available'),
    ).toMatchObject({
      name: 'Acme Support',
    })
    await business.sock.sendPresenceUpdate('unavailable')
    await sim.account(BUSINESS).waitForPresence((p) => p.kind === 'presence' && p.type === 'unavailable')
    expect(violationsSince(before)).toEqual([])
  })
})
