import type { WAMessageUpdate, WASocket } from '@whiskeysockets/baileys'
import { proto } from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WhatsAppSimulator } from '../simulator'
import { closeSocket, pairByQr } from './harness'

const ACCOUNT = '15552000001'
const ALICE = '15552000101'
const BOB = '15552000102'

describe('1:1 messaging with a real Baileys client', () => {
  let sim: WhatsAppSimulator
  let sock: WASocket
  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
    sim.addContact(ALICE)
    sim.addContact(BOB)
    sock = (await pairByQr(sim, ACCOUNT)).sock
  })
  afterAll(async () => {
    closeSocket(sock)
    await sim.stop()
  })

  it('answers onWhatsApp for known and unknown numbers in one usync query', async () => {
    const before = sim.account(ACCOUNT).stats().usyncQueries
    const result = await sock.onWhatsApp(ALICE, BOB, '15559999999')
    expect(result?.map((r) => r.jid).sort()).toEqual([`${ALICE}@s.whatsapp.net`, `${BOB}@s.whatsapp.net`])
    expect(result?.every((r) => r.exists)).toBe(true)
    expect(sim.account(ACCOUNT).stats().usyncQueries).toBe(before + 1)
  })

  it('delivers a text the contact decrypts, with no violations', async () => {
    const sent = await sock.sendMessage(`${ALICE}@s.whatsapp.net`, { text: 'hello alice' })
    const received = await sim.contact(ALICE).waitForMessage((m) => m.id === sent?.key.id)
    expect(received.message.conversation ?? received.message.extendedTextMessage?.text).toBe('hello alice')
    expect(received.from).toBe(ACCOUNT)
    expect(sim.account(ACCOUNT).stats().messagesReceived).toBeGreaterThanOrEqual(1)
    expect(sim.violations()).toEqual([])
  })

  it('delivers texts from a contact (PN- and LID-addressed) as messages.upsert', async () => {
    const texts: string[] = []
    const upserts = new Promise<void>((resolve) =>
      sock.ev.on('messages.upsert', ({ messages }) => {
        for (const m of messages) {
          const text = m.message?.conversation
          if (text && !m.key.fromMe) texts.push(text)
        }
        if (texts.length >= 2) resolve()
      }),
    )
    await sim.contact(BOB).send({ text: 'hi from bob' })
    await sim.contact(BOB).send({ text: 'hi again, by lid' }, { fromLid: true })
    await upserts
    // PN and LID chats are processed on separate queues, so arrival order is not guaranteed
    expect(texts.sort()).toEqual(['hi again, by lid', 'hi from bob'])
  })

  it('turns delivered, read and played receipts into messages.update statuses', async () => {
    const sent = await sock.sendMessage(`${ALICE}@s.whatsapp.net`, { text: 'receipts please' })
    const id = sent?.key.id ?? ''
    await sim.contact(ALICE).waitForMessage((m) => m.id === id)
    const statuses: number[] = []
    const seen = (status: number) =>
      new Promise<void>((resolve) => {
        const listener = (updates: WAMessageUpdate[]) => {
          for (const u of updates)
            if (u.key.id === id && typeof u.update.status === 'number') statuses.push(u.update.status)
          if (statuses.includes(status)) {
            sock.ev.off('messages.update', listener)
            resolve()
          }
        }
        sock.ev.on('messages.update', listener)
      })
    const Status = proto.WebMessageInfo.Status
    for (const [type, status] of [
      ['delivered', Status.DELIVERY_ACK],
      ['read', Status.READ],
      ['played', Status.PLAYED],
    ] as const) {
      const wait = seen(status)
      sim.contact(ALICE).receipt(id, type)
      await wait
    }
    expect(statuses).toEqual([Status.DELIVERY_ACK, Status.READ, Status.PLAYED])
  })

  it('accepts an edit of a sent message but records a violation for an edit of an unknown one', async () => {
    const jid = `${ALICE}@s.whatsapp.net`
    const sent = await sock.sendMessage(jid, { text: 'typo' })
    await sim.contact(ALICE).waitForMessage((m) => m.id === sent?.key.id)
    const edit = await sock.sendMessage(jid, { text: 'fixed', edit: sent!.key })
    await sim.contact(ALICE).waitForMessage((m) => m.id === edit?.key.id)
    expect(sim.violations()).toEqual([])

    const bogus = await sock.sendMessage(jid, {
      text: 'ghost edit',
      edit: { remoteJid: jid, fromMe: true, id: '3EB0DOESNOTEXIST' },
    })
    await sim.contact(ALICE).waitForMessage((m) => m.id === bogus?.key.id)
    expect(sim.violations()).toEqual([
      expect.objectContaining({
        account: ACCOUNT,
        kind: 'unknown-message-reference',
        detail: expect.stringContaining('3EB0DOESNOTEXIST'),
      }),
    ])
  })

  it('records stanzas a real server would reject: missing attributes, devices left out', async () => {
    const before = sim.violations().length
    await sock.sendNode({
      tag: 'iq',
      attrs: { to: 's.whatsapp.net', type: 'get', xmlns: 'w:p' },
      content: [{ tag: 'ping', attrs: {} }],
    })
    await sock.sendNode({
      tag: 'message',
      attrs: { id: '3EB0NOENC', to: `${BOB}@s.whatsapp.net`, type: 'text' },
      content: [{ tag: 'participants', attrs: {}, content: [] }],
    })
    await expect.poll(() => sim.violations().length, { timeout: 2000 }).toBeGreaterThanOrEqual(before + 3)
    const kinds = sim
      .violations()
      .slice(before)
      .map((v) => `${v.kind}: ${v.detail}`)
    expect(kinds).toContainEqual(expect.stringMatching(/^malformed-node: <iq> without id/))
    expect(kinds).toContainEqual(expect.stringMatching(/^missing-device-encryption: .*own phone/))
    expect(kinds).toContainEqual(
      expect.stringMatching(new RegExp(`^missing-device-encryption: .*${sim.contact(BOB).lid}@lid device 0`)),
    )
  })
})
