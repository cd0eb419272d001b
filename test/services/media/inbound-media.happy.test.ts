import { createHash } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import {
  fastWebhooks,
  loopbackWebhooks,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver'
import { fixture, type FixtureName } from '../../wa-sim/fixtures'
import type { OutgoingContent } from '../../wa-sim/contact-actions'

const ACCOUNT = '15550017001'
const CONTACT = '15551237001'

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

interface Kind {
  name: string
  fixture: FixtureName
  content: (bytes: Buffer) => OutgoingContent
  type: string
  media: Record<string, unknown>
}

const KINDS: Kind[] = [
  {
    name: 'image',
    fixture: 'jpeg',
    content: (image) => ({ image, mimetype: 'image/jpeg', caption: 'a photo', width: 32, height: 24 }),
    type: 'image',
    media: { mimetype: 'image/jpeg', width: 32, height: 24 },
  },
  {
    name: 'video',
    fixture: 'mp4',
    content: (video) => ({ video, caption: 'a clip', seconds: 1, width: 32, height: 24 }),
    type: 'video',
    media: { mimetype: 'video/mp4', seconds: 1, width: 32, height: 24 },
  },
  {
    name: 'audio',
    fixture: 'mp3',
    content: (audio) => ({ audio, mimetype: 'audio/mpeg', seconds: 1 }),
    type: 'audio',
    media: { mimetype: 'audio/mpeg', seconds: 1 },
  },
  {
    name: 'voice note',
    fixture: 'opus',
    content: (audio) => ({ audio, ptt: true, seconds: 1 }),
    type: 'ptt',
    media: { mimetype: 'audio/ogg; codecs=opus', seconds: 1 },
  },
  {
    name: 'document',
    fixture: 'pdf',
    content: (document) => ({ document, mimetype: 'application/pdf', fileName: 'Fatura nº 7.pdf', caption: 'pay me' }),
    type: 'document',
    media: { mimetype: 'application/pdf', fileName: 'Fatura nº 7.pdf' },
  },
  {
    name: 'sticker',
    fixture: 'webp',
    content: (sticker) => ({ sticker, width: 64, height: 64 }),
    type: 'sticker',
    media: { mimetype: 'image/webp', width: 64, height: 64 },
  },
]

/** Contacts send every kind of file; the API and the signed URL serve the very bytes (lazy, local store). */
describe('inbound media: records, message.received, download by API and by signed URL', () => {
  let t: SimulatedGateway
  let receiver: WebhookReceiver
  let sessionId: string
  let secret: string

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    t = await startSimulatedGateway({
      config: { ...loopbackWebhooks, webhooks: fastWebhooks(), publicUrl: 'https://gateway.invalid/base' },
    })
    t.sim.addContact(CONTACT)
    ;({ sessionId, webhookSecret: secret } = await t.linkSession({
      phone: ACCOUNT,
      connect: { sessionName: 'media', webhookUrl: receiver.url('hook') },
    }))
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await receiver.close()
  })

  const received = async (messageId: string) =>
    (
      await receiver.waitFor('hook', secret, (events) =>
        events.some((e) => e.type === 'message.received' && e.data.messageId === messageId),
      )
    ).find((e) => e.type === 'message.received' && e.data.messageId === messageId)!
  /** GET without any credential, as a webhook receiver follows downloadUrl. */
  const follow = (downloadUrl: string, headers: Record<string, string> = {}) => {
    const url = new URL(downloadUrl)
    expect(url.origin + url.pathname.slice(0, 5)).toBe('https://gateway.invalid/base')
    return t.gateway.app.request(url.pathname.replace('/base', ''), { headers })
  }
  const api = (messageId: string, headers: Record<string, string> = {}) =>
    t.request(`/v1/message/${encodeURIComponent(messageId)}/media?sessionId=${sessionId}`, { headers })

  for (const kind of KINDS) {
    it(`a ${kind.name}: content.media, then the same bytes by API and by downloadUrl, fetched once`, async () => {
      const { bytes } = fixture(kind.fixture)
      const messageId = await t.sim.contact(CONTACT).send(kind.content(bytes), { to: ACCOUNT })
      const record = await t.waitForRecord(sessionId, messageId, (r) => r?.messageId === messageId)
      const media = { ...kind.media, size: bytes.length, sha256: sha256(bytes) }
      expect(record).toMatchObject({ type: kind.type, direction: 'inbound', content: { media } })

      const event = await received(messageId)
      expect(event.data.content.media).toEqual(record.content.media)
      expect(event.data.downloadUrl).toMatch(/^https:\/\/gateway\.invalid\/base\/v1\/media\/[\w-]+\.[\w-]+$/)
      // lazy: nothing was fetched from WhatsApp before someone asked
      expect(t.sim.contact(CONTACT).sentMedia(messageId).downloads).toBe(0)

      const response = await api(messageId)
      expect(response.status).toBe(200)
      const body = new Uint8Array(await response.arrayBuffer())
      expect(sha256(body)).toBe(sha256(bytes))
      expect(Object.fromEntries(response.headers)).toMatchObject({
        'content-type': kind.media.mimetype,
        'content-length': String(bytes.length),
        etag: `"${sha256(bytes)}"`,
        'accept-ranges': 'bytes',
        'x-content-type-options': 'nosniff',
      })
      expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="[^"]+"; filename\*=UTF-8''/)

      const signed = await follow(event.data.downloadUrl)
      expect(signed.status).toBe(200)
      expect(sha256(new Uint8Array(await signed.arrayBuffer()))).toBe(sha256(bytes))
      expect(t.sim.contact(CONTACT).sentMedia(messageId).downloads).toBe(1)
    })
  }

  it('names a document by its file name (UTF-8 and an ASCII fallback), others by id and type', async () => {
    const doc = await t.sim
      .contact(CONTACT)
      .send({ document: Buffer.from('x'), fileName: '../../etc/"ração".txt', mimetype: 'text/plain' }, { to: ACCOUNT })
    await t.waitForRecord(sessionId, doc, (r) => r?.messageId === doc)
    expect((await api(doc)).headers.get('content-disposition')).toBe(
      `attachment; filename="ra__o.txt"; filename*=UTF-8''ra%C3%A7%C3%A3o.txt`,
    )
    const image = await t.sim
      .contact(CONTACT)
      .send({ image: Buffer.from('img'), mimetype: 'image/png' }, { to: ACCOUNT })
    await t.waitForRecord(sessionId, image, (r) => r?.messageId === image)
    const safeId = image.replace(/[^A-Za-z0-9_-]/g, '')
    expect((await api(image)).headers.get('content-disposition')).toBe(
      `attachment; filename="${safeId}.png"; filename*=UTF-8''${safeId}.png`,
    )
  })

  it('serves a Range (206) and If-None-Match (304); keeps the file in the store beside the database', async () => {
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251))
    const messageId = await t.sim.contact(CONTACT).send({ document: bytes, fileName: 'r.bin' }, { to: ACCOUNT })
    await t.waitForRecord(sessionId, messageId, (r) => r?.messageId === messageId)

    const part = await api(messageId, { range: 'bytes=100-199' })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe('bytes 100-199/5000')
    expect(part.headers.get('content-length')).toBe('100')
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true)

    const tail = await api(messageId, { range: 'bytes=-10' })
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(4990))).toBe(true)
    const open = await api(messageId, { range: 'bytes=4990-' })
    expect(open.headers.get('content-range')).toBe('bytes 4990-4999/5000')

    const beyond = await api(messageId, { range: 'bytes=5000-' })
    expect(beyond.status).toBe(416)
    expect(beyond.headers.get('content-range')).toBe('bytes */5000')
    expect(((await beyond.json()) as any).error).toBe('range_not_satisfiable')

    const several = await api(messageId, { range: 'bytes=0-1,5-6' })
    expect(several.status).toBe(200)
    expect((await several.arrayBuffer()).byteLength).toBe(5000)
    const otherEtag = await api(messageId, { range: 'bytes=0-9', 'if-range': '"not-it"' })
    expect(otherEtag.status).toBe(200)
    await otherEtag.arrayBuffer()

    const etag = part.headers.get('etag')!
    const unchanged = await api(messageId, { 'if-none-match': etag })
    expect(unchanged.status).toBe(304)
    expect(await unchanged.text()).toBe('')

    const files = readdirSync(join(dirname(t.databasePath), 'media'), { recursive: true }) as string[]
    expect(files.some((f) => /^[0-9a-f]{2}\/[0-9a-f]{64}$/.test(f))).toBe(true)
    expect(t.sim.contact(CONTACT).sentMedia(messageId).downloads).toBe(1)
    expect(t.sim.violations()).toEqual([])
  })
})
