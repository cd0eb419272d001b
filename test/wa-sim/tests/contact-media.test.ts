import { createHash, randomBytes } from 'node:crypto'
import type { BinaryNode, WAMessage, WASocket } from '@whiskeysockets/baileys'
import { downloadMediaMessage, encryptMediaRetryRequest, normalizeMessageContent } from '@whiskeysockets/baileys'
import { Agent } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ControlApi } from '../control-api'
import { fixture } from '../fixtures'
import { WhatsAppSimulator } from '../simulator'
import { closeSocket, pairByQr } from './harness'

const ACCOUNT = '15554300001'
const ERIN = '15554300101'

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

describe('contacts send media and contact cards; the phone answers media retries (real Baileys)', () => {
  let sim: WhatsAppSimulator
  let api: ControlApi
  let sock: WASocket
  let dispatcher: Agent
  const upserts: WAMessage[] = []
  const stanzas = new Map<string, BinaryNode>()
  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
    api = await ControlApi.start(sim)
    dispatcher = new Agent({ connect: { ca: sim.config.mediaCaPem } })
    sim.addContact(ERIN)
    sock = (await pairByQr(sim, ACCOUNT)).sock
    sock.ev.on('messages.upsert', ({ messages }) => upserts.push(...messages))
    sock.ws.on('CB:message', (node: BinaryNode) => stanzas.set(node.attrs.id ?? '', node))
  })
  afterAll(async () => {
    closeSocket(sock)
    await dispatcher.close()
    await api.stop()
    await sim.stop()
  })

  const received = async (id: string) => {
    await expect.poll(() => upserts.find((m) => m.key.id === id), { timeout: 5000 }).toBeTruthy()
    return upserts.find((m) => m.key.id === id)!
  }
  /** Baileys' own download (global fetch with an undici dispatcher trusting the simulator's CA). */
  const download = (message: WAMessage) =>
    downloadMediaMessage(message, 'buffer', { options: { dispatcher } } as never) as Promise<Buffer>
  const mediatype = (id: string) =>
    ((stanzas.get(id)?.content ?? []) as BinaryNode[]).find((n) => n.tag === 'enc')?.attrs.mediatype

  const kinds = [
    {
      name: 'image',
      content: (b: Buffer) => ({ image: b, mimetype: 'image/jpeg', width: 32, height: 24 }),
      field: 'imageMessage',
      mediatype: 'image',
    },
    {
      name: 'video',
      content: (b: Buffer) => ({ video: b, seconds: 1, caption: 'clip' }),
      field: 'videoMessage',
      mediatype: 'video',
    },
    { name: 'gif', content: (b: Buffer) => ({ video: b, gifPlayback: true }), field: 'videoMessage', mediatype: 'gif' },
    { name: 'audio', content: (b: Buffer) => ({ audio: b, seconds: 2 }), field: 'audioMessage', mediatype: 'audio' },
    {
      name: 'voice note',
      content: (b: Buffer) => ({ audio: b, ptt: true, seconds: 2 }),
      field: 'audioMessage',
      mediatype: 'ptt',
    },
    {
      name: 'document',
      content: (b: Buffer) => ({ document: b, fileName: 'r.bin', mimetype: 'application/x-thing' }),
      field: 'documentMessage',
      mediatype: 'document',
    },
    {
      name: 'sticker',
      content: (b: Buffer) => ({ sticker: b, animated: true }),
      field: 'stickerMessage',
      mediatype: 'sticker',
    },
  ] as const

  for (const kind of kinds) {
    it(`a ${kind.name}: the real keys of its kind, Baileys downloads the very bytes`, async () => {
      const bytes = randomBytes(5000 + Math.floor(Math.random() * 100))
      const id = await sim.contact(ERIN).send(kind.content(bytes), { to: ACCOUNT })
      const message = await received(id)
      const media = (normalizeMessageContent(message.message) as Record<string, any>)[kind.field]
      expect(media).toMatchObject({ fileLength: expect.anything(), mediaKey: expect.anything() })
      expect(Number(media.fileLength)).toBe(bytes.length)
      expect(Buffer.from(media.fileSha256).toString('hex')).toBe(sha256(bytes))
      expect(mediatype(id)).toBe(kind.mediatype)
      expect(sha256(await download(message))).toBe(sha256(bytes))
    })
  }

  it('a captioned document arrives wrapped (documentWithCaptionMessage) with its name', async () => {
    const pdf = fixture('pdf')
    const { json } = await postJson(`/contacts/${ERIN}/messages`, {
      to: ACCOUNT,
      document: { fixture: 'pdf', fileName: 'invoice.pdf', caption: 'your invoice' },
    })
    const message = await received(json.messageId)
    expect(message.message?.documentWithCaptionMessage?.message?.documentMessage).toMatchObject({
      fileName: 'invoice.pdf',
      caption: 'your invoice',
      mimetype: 'application/pdf',
    })
    expect((await download(message)).equals(pdf.bytes)).toBe(true)
  })

  it('media by the control API: base64 data or a fixture', async () => {
    const bytes = randomBytes(777)
    const sent = await postJson(`/contacts/${ERIN}/messages`, {
      to: ACCOUNT,
      audio: { data: bytes.toString('base64'), ptt: true, seconds: 3 },
    })
    expect(sent.status).toBe(200)
    const voice = await received(sent.json.messageId)
    expect(voice.message?.audioMessage).toMatchObject({ ptt: true, seconds: 3 })
    expect((await download(voice)).equals(bytes)).toBe(true)

    const video = await postJson(`/contacts/${ERIN}/messages`, { to: ACCOUNT, video: { fixture: 'mp4' } })
    const clip = await received(video.json.messageId)
    expect(clip.message?.videoMessage).toMatchObject({ mimetype: 'video/mp4', width: 32, height: 24, seconds: 1 })
    expect((await download(clip)).equals(fixture('mp4').bytes)).toBe(true)

    expect((await postJson(`/contacts/${ERIN}/messages`, { video: { fixture: 'nope' } })).status).toBe(400)
    expect((await postJson(`/contacts/${ERIN}/messages`, { document: { fixture: 'pdf' } })).json.message).toMatch(
      /fileName/,
    )
  })

  it('contact cards: one is a contactMessage (vcard), several a contactsArrayMessage (contact_array)', async () => {
    const one = await sim
      .contact(ERIN)
      .send({ contacts: [{ name: 'Ana; "Ops", Lda', phones: ['+1 555 000 1111'] }] }, { to: ACCOUNT })
    const card = (await received(one)).message?.contactMessage
    expect(card?.displayName).toBe('Ana; "Ops", Lda')
    expect(card?.vcard).toContain('FN:Ana\\; "Ops"\\, Lda')
    expect(card?.vcard).toContain('TEL;type=CELL;type=VOICE;waid=15550001111:+1 555 000 1111')
    expect(mediatype(one)).toBe('vcard')

    const { json } = await postJson(`/contacts/${ERIN}/messages`, {
      to: ACCOUNT,
      contacts: [{ name: 'A', phones: ['1'] }, { name: 'B' }],
    })
    const array = (await received(json.messageId)).message?.contactsArrayMessage
    expect(array?.contacts?.map((c) => c.displayName)).toEqual(['A', 'B'])
    expect(mediatype(json.messageId)).toBe('contact_array')
  })

  it('an expired file (410) comes back after the phone answers updateMediaMessage; a lost one is NOT_FOUND', async () => {
    const bytes = randomBytes(4096)
    const id = await sim.contact(ERIN).send({ image: bytes, mimetype: 'image/jpeg' }, { to: ACCOUNT })
    const message = await received(id)
    const firstPath = sim.contact(ERIN).sentMedia(id).directPath
    sim.contact(ERIN).expireMedia(id, { status: 410 })
    await expect(download(message)).rejects.toMatchObject({ output: { statusCode: 410 } })

    // Baileys builds the new URL on the media host media_conn named (mmg.whatsapp.net until asked)
    await sock.refreshMediaConn(true)
    const updated = await sock.updateMediaMessage(message)
    const directPath = updated.message?.imageMessage?.directPath
    expect(directPath).toBe(sim.contact(ERIN).sentMedia(id).directPath)
    expect(directPath).not.toBe(firstPath)
    expect((await download(updated)).equals(bytes)).toBe(true)

    const lost = await sim.contact(ERIN).send({ document: randomBytes(100), fileName: 'x' }, { to: ACCOUNT })
    const lostMessage = await received(lost)
    expect(
      (await postJson(`/contacts/${ERIN}/expirations`, { messageId: lost, status: 404, reupload: false })).status,
    ).toBe(200)
    await expect(download(lostMessage)).rejects.toMatchObject({ output: { statusCode: 404 } })
    await expect(sock.updateMediaMessage(lostMessage)).rejects.toThrow(/NOT_FOUND/)
    expect(sim.violations()).toEqual([])
  })

  it('a phone that is offline answers no retry; a retry it cannot open is a violation', async () => {
    const id = await sim.contact(ERIN).send({ sticker: randomBytes(300) }, { to: ACCOUNT })
    const message = await received(id)
    sim.contact(ERIN).expireMedia(id)
    sim.account(ACCOUNT).fault('phone-offline')
    const answered = await Promise.race([
      sock.updateMediaMessage(message).then(() => 'answered'),
      new Promise((resolve) => setTimeout(() => resolve('silence'), 700)),
    ])
    expect(answered).toBe('silence')
    sim.account(ACCOUNT).clearFaults()

    // Keys of another file: the phone cannot open the request
    const me = sock.user!.id
    const wrongKey = encryptMediaRetryRequest(message.key, randomBytes(32), me)
    await sock.sendNode(wrongKey)
    const unknown = encryptMediaRetryRequest({ ...message.key, id: '3ANOSUCHMESSAGE' }, randomBytes(32), me)
    await sock.sendNode(unknown)
    const wrongChat = encryptMediaRetryRequest(
      { ...message.key, remoteJid: '15559999999@s.whatsapp.net' },
      message.message!.stickerMessage!.mediaKey!,
      me,
    )
    await sock.sendNode(wrongChat)
    await expect
      .poll(() => sim.violations().map((v) => v.kind), { timeout: 3000 })
      .toEqual(['invalid-media-retry', 'invalid-media-retry', 'invalid-media-retry'])
    expect(sim.violations().map((v) => v.detail)).toEqual([
      expect.stringMatching(/does not open/),
      expect.stringMatching(/no contact sent/),
      expect.stringMatching(/not the key of the message/),
    ])
  })

  it('a message can name another place for its file (where), strictly; a scripted media host path answers as told', async () => {
    const redirect = sim.scriptMedia({ status: 302, location: 'https://127.0.0.1:1/elsewhere' })
    const where = { url: redirect.url, directPath: redirect.directPath }
    const id = await sim.contact(ERIN).send({ document: randomBytes(200), fileName: 'f', where }, { to: ACCOUNT })
    const { documentMessage } = (await received(id)).message!
    expect(documentMessage).toMatchObject(where)
    const answer = await fetch(redirect.url, { redirect: 'manual', dispatcher } as unknown as RequestInit)
    expect([answer.status, answer.headers.get('location')]).toEqual([302, 'https://127.0.0.1:1/elsewhere'])
    expect(redirect.downloads()).toBe(1)
    const bare = await sim.contact(ERIN).send({ image: randomBytes(50), mimetype: 'image/jpeg', where: { url: null } })
    expect((await received(bare)).message!.imageMessage!.url).toBeFalsy()

    const send = (where: unknown) =>
      sim.contact(ERIN).send({ document: randomBytes(10), fileName: 'f', where } as never, { to: ACCOUNT })
    await expect(send({})).rejects.toThrow(/names url and\/or directPath/)
    await expect(send({ host: 'x' })).rejects.toThrow(/names url and\/or directPath/)
    await expect(send({ url: 42 })).rejects.toThrow(/must be a string or null/)
    expect(() => sim.scriptMedia({ status: 302 })).toThrow(/needs a location/)
    expect(() => sim.scriptMedia({ status: 200, location: 'https://x.example/' })).toThrow(/only a 3xx/)
    expect(() => sim.scriptMedia({ status: 404, body: Buffer.from('x') })).toThrow(/only a 200/)
    expect(() => sim.scriptMedia({ status: 99 })).toThrow(/200-599/)
  })

  const postJson = async (path: string, body: unknown) => {
    const response = await fetch(`${api.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return { status: response.status, json: (await response.json()) as any }
  }
})
