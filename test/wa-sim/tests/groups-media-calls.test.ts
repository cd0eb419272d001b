import type { WASocket } from '@whiskeysockets/baileys'
import type { proto } from '@whiskeysockets/baileys'
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WhatsAppSimulator } from '../simulator'
import { closeSocket, pairByQr } from './harness'

const ACCOUNT = '15553000001'
const MEMBERS = ['15553000101', '15553000102', '15553000103']

describe('groups, media and calls with a real Baileys client', () => {
  let sim: WhatsAppSimulator
  let sock: WASocket
  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
    for (const phone of MEMBERS) sim.addContact(phone)
    sock = (await pairByQr(sim, ACCOUNT)).sock
  })
  afterAll(async () => {
    closeSocket(sock)
    await sim.stop()
  })

  it('delivers a group message every participant decrypts (sender keys), twice', async () => {
    const group = sim.createGroup('Sim group', MEMBERS)
    const metadata = await sock.groupMetadata(group.jid)
    expect(metadata.subject).toBe('Sim group')
    expect(metadata.participants).toHaveLength(MEMBERS.length + 1)
    for (const text of ['hello group', 'second message, sender key reused']) {
      const sent = await sock.sendMessage(group.jid, { text })
      for (const phone of MEMBERS) {
        const received = await sim.contact(phone).waitForMessage((m) => m.id === sent?.key.id)
        expect(received.chat).toBe(group.jid)
        expect(received.message.conversation ?? received.message.extendedTextMessage?.text).toBe(text)
      }
    }
    expect(sim.violations()).toEqual([])
  })

  it('uploads an image through the HTTPS media host; the contact downloads and decrypts the same bytes', async () => {
    const image = randomBytes(4096)
    const sent = await sock.sendMessage(`${MEMBERS[0]}@s.whatsapp.net`, {
      image,
      mimetype: 'image/jpeg',
      caption: 'a picture',
    })
    const received = await sim.contact(MEMBERS[0]!).waitForMessage((m) => m.id === sent?.key.id)
    const imageMessage = received.message.imageMessage
    expect(imageMessage?.caption).toBe('a picture')
    expect(sim.mediaUploads().some((u) => u.directPath === imageMessage?.directPath)).toBe(true)
    const downloaded = await sim.contact(MEMBERS[0]!).downloadMedia(imageMessage!, 'image')
    expect(downloaded.equals(image)).toBe(true)
  })

  it('sends an image from a contact that Baileys receives and downloads from the media host', async () => {
    const image = randomBytes(2048)
    const upsert = new Promise<proto.IWebMessageInfo>((resolve) =>
      sock.ev.on('messages.upsert', ({ messages }) => {
        const m = messages.find((x) => x.message?.imageMessage && !x.key.fromMe)
        if (m) resolve(m)
      }),
    )
    await sim.contact(MEMBERS[1]!).send({ image, mimetype: 'image/png', caption: 'from contact' })
    const message = (await upsert).message!.imageMessage!
    expect(message.caption).toBe('from contact')
    // The keys Baileys received open the stored media (Baileys' own download needs an undici dispatcher)
    const opened = await sim.contact(MEMBERS[1]!).downloadMedia(message, 'image')
    expect(opened.equals(image)).toBe(true)
  })

  it('offers a call; Baileys emits call, rejects it, and the simulator records the reject', async () => {
    const offered = new Promise<{ id: string; from: string }>((resolve) =>
      sock.ev.on('call', (calls) => {
        const offer = calls.find((c) => c.status === 'offer')
        if (offer) resolve(offer)
      }),
    )
    const callId = sim.contact(MEMBERS[2]!).call(ACCOUNT)
    const offer = await offered
    expect(offer.id).toBe(callId)
    await sock.rejectCall(offer.id, offer.from)
    expect(await sim.account(ACCOUNT).waitForCallResponse(callId)).toBe('reject')
  })
})
