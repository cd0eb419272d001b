import type { BaileysEventMap, WASocket } from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WhatsAppSimulator } from '../simulator'
import { closeSocket, pairByQr } from './harness'

const SHOP = '15554300001'
const PERSONAL = '15554300002'
const FRIEND = '15554300011'

const pn = (phone: string) => `${phone}@s.whatsapp.net`

/** Collects a socket's label events, in order, for waiting on. */
const labelEvents = (sock: WASocket) => {
  const events: { edit?: BaileysEventMap['labels.edit']; association?: BaileysEventMap['labels.association'] }[] = []
  sock.ev.on('labels.edit', (edit) => events.push({ edit }))
  sock.ev.on('labels.association', (association) => events.push({ association }))
  return events
}

const until = async <T>(read: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = read()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/**
 * Business labels as app-state: the phone keeps what a business account's device uploads through
 * Baileys' chatModify (checked as the Business app would), and its own changes reach the device
 * by a patch and a server_sync notification, which Baileys reads as labels.* events.
 */
describe('business labels', () => {
  let sim: WhatsAppSimulator
  let shop: WASocket
  let personal: WASocket
  let shopEvents: ReturnType<typeof labelEvents>

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start({ contacts: [FRIEND] })
    ;({ sock: shop } = await pairByQr(sim, SHOP))
    sim.setProfile(SHOP, { business: { description: 'Bicycles' } })
    ;({ sock: personal } = await pairByQr(sim, PERSONAL))
    await sim.account(SHOP).waitForAppStateKey()
    await sim.account(PERSONAL).waitForAppStateKey()
    shopEvents = labelEvents(shop)
  }, 60_000)
  afterAll(async () => {
    await closeSocket(shop)
    await closeSocket(personal)
    await sim.stop()
  })

  it('keeps a business device’s labels and what they are on', async () => {
    await shop.chatModify({ addLabel: { id: '1', name: 'New customer', color: 3, deleted: false } }, '')
    await shop.chatModify({ addChatLabel: { labelId: '1' } }, pn(FRIEND))
    await shop.chatModify({ addMessageLabel: { labelId: '1', messageId: 'MSG1' } }, pn(FRIEND))
    expect(sim.account(SHOP).labels.list()).toEqual([
      { id: '1', name: 'New customer', color: 3, chats: [pn(FRIEND)], messages: [`${pn(FRIEND)} MSG1`] },
    ])
    await shop.chatModify({ removeMessageLabel: { labelId: '1', messageId: 'MSG1' } }, pn(FRIEND))
    await shop.chatModify({ addLabel: { id: '1', name: 'Customer', color: 19 } }, '')
    expect(sim.account(SHOP).labels.list()).toEqual([
      { id: '1', name: 'Customer', color: 19, chats: [pn(FRIEND)], messages: [] },
    ])
    expect(sim.violations()).toEqual([])
  })

  it('sends the phone’s own label changes to the device, which syncs them', async () => {
    const seen = shopEvents.length
    await sim.account(SHOP).labels.save({ id: '2', name: 'Paid', color: 5 })
    await sim.account(SHOP).labels.labelChat('2', pn(FRIEND))
    await sim.account(SHOP).labels.labelMessage('2', pn(FRIEND), 'MSG2')
    await sim.account(SHOP).labels.remove('1')
    const events = await until(() => {
      const fresh = shopEvents.slice(seen)
      return fresh.length >= 4 ? fresh : undefined
    }, 'four label events')
    expect(events).toEqual([
      { edit: expect.objectContaining({ id: '2', name: 'Paid', color: 5 }) },
      {
        association: {
          type: 'add',
          association: { type: 'label_jid', chatId: pn(FRIEND), labelId: '2' },
        },
      },
      {
        association: {
          type: 'add',
          association: { type: 'label_message', chatId: pn(FRIEND), messageId: 'MSG2', labelId: '2' },
        },
      },
      { edit: expect.objectContaining({ id: '1', deleted: true }) },
    ])
    // The device's next upload builds on the phone's patches: its version is the server's.
    await shop.chatModify({ removeChatLabel: { labelId: '2' } }, pn(FRIEND))
    expect(sim.account(SHOP).labels.list()).toEqual([
      { id: '2', name: 'Paid', color: 5, chats: [], messages: [`${pn(FRIEND)} MSG2`] },
    ])
    expect(sim.violations()).toEqual([])
  })

  it('refuses labels of a personal account, unknown labels, colours off the palette and a 21st label', async () => {
    const before = sim.violations().length
    await personal.chatModify({ addLabel: { id: '1', name: 'Mine', color: 1, deleted: false } }, '')
    expect(sim.account(PERSONAL).labels.list()).toEqual([])
    await shop.chatModify({ addChatLabel: { labelId: '99' } }, pn(FRIEND))
    await shop.chatModify({ addLabel: { id: '3', name: 'Off', color: 20, deleted: false } }, '')
    await shop.chatModify({ addLabel: { id: '3', name: 'x'.repeat(101), color: 1, deleted: false } }, '')
    for (let id = 3; id <= 22; id++)
      await shop.chatModify({ addLabel: { id: String(id), name: `L${id}`, color: 0, deleted: false } }, '')
    expect(sim.account(SHOP).labels.list()).toHaveLength(20)
    const found = sim.violations().slice(before)
    expect(found.map((v) => v.kind)).toEqual(Array(5).fill('invalid-label'))
    expect(found.map((v) => v.detail)).toEqual([
      expect.stringContaining('a personal account'),
      expect.stringContaining('label 99, which does not exist'),
      expect.stringContaining('label colour 20'),
      expect.stringContaining('label name of 101 characters'),
      expect.stringContaining('a 21st label'),
    ])
  })
})
