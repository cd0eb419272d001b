import type { proto, WASocket } from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WhatsAppSimulator } from '../simulator'
import { closeSocket, pairByQr } from './harness'

const ACCOUNT = '15553100001'
const VIEWERS = ['15553100101', '15553100102']
const OUTSIDER = '15553100103'

/**
 * Statuses (stories) with a real Baileys client: what the account posts to status@broadcast
 * reaches exactly the contacts it lists (sender keys given in the same stanza), and a contact's
 * status reaches the account from status@broadcast with the contact as participant.
 */
describe('statuses with a real Baileys client', () => {
  let sim: WhatsAppSimulator
  let sock: WASocket
  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
    for (const phone of [...VIEWERS, OUTSIDER]) sim.addContact(phone)
    sock = (await pairByQr(sim, ACCOUNT)).sock
  })
  afterAll(async () => {
    closeSocket(sock)
    await sim.stop()
  })

  it('posts a text status the listed contacts decrypt, and nobody else', async () => {
    const sent = await sock.sendMessage(
      'status@broadcast',
      { text: 'out for lunch' },
      { statusJidList: VIEWERS.map((phone) => `${phone}@s.whatsapp.net`), backgroundColor: '#ff336699', font: 2 },
    )
    for (const phone of VIEWERS) {
      const received = await sim.contact(phone).waitForMessage((m) => m.id === sent?.key.id)
      expect(received.chat).toBe('status@broadcast')
      expect(received.message.extendedTextMessage).toMatchObject({ text: 'out for lunch', font: 2 })
    }
    expect(
      sim
        .contact(OUTSIDER)
        .inbox()
        .some((m) => m.id === sent?.key.id),
    ).toBe(false)
    expect(sim.violations()).toEqual([])
  })

  it('refuses a status shown to nobody', async () => {
    await sock.sendMessage('status@broadcast', { text: 'to nobody' }, { statusJidList: [] }).catch(() => undefined)
    await expect
      .poll(() => sim.violations().map((v) => v.detail))
      .toEqual([expect.stringContaining('is shown to no contact')])
  })

  it('relays a contact’s status to the account from status@broadcast, the contact as participant', async () => {
    const upsert = new Promise<proto.IWebMessageInfo>((resolve) =>
      sock.ev.on('messages.upsert', ({ messages }) => {
        const status = messages.find((m) => m.key.remoteJid === 'status@broadcast' && !m.key.fromMe)
        if (status) resolve(status)
      }),
    )
    const id = await sim.contact(VIEWERS[0]!).postStatus({ text: 'at the beach' }, ACCOUNT)
    const status = await upsert
    expect(status.key?.id).toBe(id)
    expect(status.key?.participant).toBe(`${sim.contact(VIEWERS[0]!).lid}@lid`)
    expect(status.message?.conversation ?? status.message?.extendedTextMessage?.text).toBe('at the beach')
  })
})
