import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixtures } from '../../../support/media-fixtures'
import { startMediaServer, type MediaServer } from '../../../support/media-server'
import { startSimulatedGateway, type SimulatedGateway } from '../../../support/simulated-gateway'
import { setTimeout as sleep } from 'node:timers/promises'

const ACCOUNT = '15550018001'
const CONTACT = '15551238001'
const MEDIA_MAX = 256 * 1024

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')

/**
 * What the video, document and contact sends and data: URLs refuse, and that a refusal leaves
 * nothing behind: no record, no upload, nothing in the contact's inbox. Other workspaces'
 * sessions are 404; Idempotency-Key retries send once.
 */
describe('video, document and contact sends that must be refused', () => {
  let t: SimulatedGateway
  let files: MediaServer
  let sessionId: string
  let png: Uint8Array

  beforeAll(async () => {
    files = await startMediaServer()
    png = await fixtures.png()
    t = await startSimulatedGateway({
      config: {
        allowPrivateAddresses: true,
        bodyLimitBytes: 512 * 1024,
        media: { maxBytes: MEDIA_MAX, maxSeconds: 900, timeoutMs: 10_000 },
      },
    })
    t.sim.addContact(CONTACT)
    sessionId = await t.pairByQr('refusals', ACCOUNT)
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await files.close()
  })

  const records = async () => (await t.get(`/v1/message/all?sessionId=${sessionId}&limit=100`)).body.messages.length
  /** Sends each body and checks nothing was recorded, uploaded or delivered. */
  const refusals = async (sends: [string, Record<string, unknown>][]) => {
    const before = {
      records: await records(),
      uploads: t.sim.mediaUploads().length,
      inbox: t.sim.contact(CONTACT).inbox().length,
    }
    const answers = []
    for (const [path, body] of sends) answers.push(await t.post(path, { sessionId, phone: CONTACT, ...body }))
    expect(await records()).toBe(before.records)
    expect(t.sim.mediaUploads().length).toBe(before.uploads)
    expect(t.sim.contact(CONTACT).inbox().length).toBe(before.inbox)
    return answers.map((a) => ({
      status: a.status,
      error: a.body.error,
      reason: a.body.details?.reason,
      fields: a.body.details?.fields,
    }))
  }

  it('answers 400 naming the field for malformed bodies', async () => {
    const card = { name: 'Ana', phones: ['15550000001'] }
    const answers = await refusals([
      ['/v1/message/video', {}],
      ['/v1/message/video', { videoUrl: 'ftp://example.com/a.mp4' }],
      ['/v1/message/video', { videoUrl: 'https://example.com/a.mp4', gifPlayback: 'yes' }],
      ['/v1/message/document', { documentUrl: `https://example.com/${'a'.repeat(2100)}` }],
      ['/v1/message/document', { documentUrl: 'https://example.com/x', fileName: '../etc/passwd' }],
      ['/v1/message/document', { documentUrl: 'https://example.com/x', fileName: 'a\u0000b' }],
      ['/v1/message/document', { documentUrl: 'https://example.com/x', fileName: 'invoice\u202efdp.exe' }],
      ['/v1/message/document', { documentUrl: 'https://example.com/x', fileName: '..' }],
      ['/v1/message/document', { documentUrl: 'https://example.com/x', fileName: 'x'.repeat(256) }],
      ['/v1/message/document', { documentUrl: 'https://example.com/x', caption: 'c'.repeat(1025) }],
      ['/v1/message/contact', { contacts: [] }],
      ['/v1/message/contact', { contacts: Array.from({ length: 11 }, () => card) }],
      ['/v1/message/contact', { contacts: [{ name: 'Ana', phones: [] }] }],
      ['/v1/message/contact', { contacts: [{ name: 'Ana\r\nX', phones: ['15550000001'] }] }],
      ['/v1/message/contact', { contacts: [{ name: '   ', phones: ['15550000001'] }] }],
      ['/v1/message/contact', { contacts: [{ ...card, phones: ['call me'] }] }],
      ['/v1/message/contact', { contacts: [{ ...card, email: 'not-an-email' }] }],
      ['/v1/message/contact', { contacts: [{ ...card, extra: 1 }] }],
    ])
    const paths = answers.map((a) => a.fields?.map((f: { path: string }) => f.path))
    expect(answers.every((a) => a.status === 400 && a.error === 'validation_error')).toBe(true)
    expect(paths).toEqual([
      ['videoUrl'],
      ['videoUrl'],
      ['gifPlayback'],
      ['documentUrl'],
      ['fileName'],
      ['fileName'],
      ['fileName'],
      ['fileName'],
      ['fileName'],
      ['caption'],
      ['contacts'],
      ['contacts'],
      ['contacts.0.phones'],
      ['contacts.0.name'],
      ['contacts.0.name'],
      ['contacts.0.phones.0'],
      ['contacts.0.email'],
      ['contacts.0'],
    ])
  })

  it('answers 422 with the reason for data: URLs that are not base64 media of the right type', async () => {
    const answers = await refusals([
      ['/v1/message/image', { imageUrl: 'data:image/png;base64,iVBOR!@#$' }],
      ['/v1/message/image', { imageUrl: 'data:image/png;base64,iVBORw0KG' }],
      ['/v1/message/image', { imageUrl: 'data:image/png,%89PNG' }],
      ['/v1/message/image', { imageUrl: 'data:image/png;base64,' }],
      ['/v1/message/image', { imageUrl: 'data:no comma at all' }],
      ['/v1/message/image', { imageUrl: 'data:text/html;base64,PGgxPmhpPC9oMT4=' }],
      ['/v1/message/image', { imageUrl: `data:not a type;base64,${b64(png)}` }],
      ['/v1/message/video', { videoUrl: `data:image/png;base64,${b64(png)}` }],
      ['/v1/message/audio', { audioUrl: `data:video/mp4;base64,${b64(png)}` }],
      // The declared type passes, the bytes do not: sniffed as for a URL.
      ['/v1/message/image', { imageUrl: `data:image/jpeg;base64,${b64(new TextEncoder().encode('not a picture'))}` }],
      ['/v1/message/video', { videoUrl: `data:video/mp4;base64,${b64(png)}` }],
    ])
    expect(answers.map((a) => [a.status, a.error])).toEqual(answers.map(() => [422, 'media_unavailable']))
    expect(answers.map((a) => a.reason)).toEqual([
      expect.stringMatching(/not valid base64 \(a "!" at character 6\)/),
      expect.stringMatching(/not valid base64 \(wrong length or padding\)/),
      expect.stringMatching(/only base64 data: URLs/),
      expect.stringMatching(/holds no data/),
      expect.stringMatching(/not a data: URL/),
      expect.stringMatching(/declares text\/html; imageUrl takes image\/\*/),
      expect.stringMatching(/is not a type\/subtype/),
      expect.stringMatching(/declares image\/png; videoUrl takes video\/\* or image\/gif/),
      expect.stringMatching(/declares video\/mp4; audioUrl takes audio\/\*/),
      undefined, // the image check names no single reason field for unknown bytes
      expect.stringMatching(/the bytes are image\/png; send an MP4/),
    ])
  })

  it('refuses files that are not videos, naming what they are', async () => {
    files.serve('report.pdf', new TextEncoder().encode('%PDF-1.4\n%%EOF\n'))
    files.serve(
      'noise.bin',
      new Uint8Array(4096).map((_, i) => (i * 31) % 256),
    )
    const answers = await refusals([
      ['/v1/message/video', { videoUrl: files.url('report.pdf') }],
      ['/v1/message/video', { videoUrl: files.url('noise.bin') }],
    ])
    expect(answers).toEqual([
      expect.objectContaining({ status: 422, reason: expect.stringMatching(/the bytes are application\/pdf/) }),
      expect.objectContaining({ status: 422, reason: expect.stringMatching(/no known video format/) }),
    ])
  })

  it('answers 413 for media over MEDIA_MAX_BYTES, by URL or data: URL, and for bodies over BODY_LIMIT_BYTES', async () => {
    const big = new Uint8Array(MEDIA_MAX + 1)
    files.serve('big.bin', big)
    const answers = await refusals([
      ['/v1/message/document', { documentUrl: files.url('big.bin') }],
      ['/v1/message/document', { documentUrl: `data:application/octet-stream;base64,${b64(big)}` }],
      ['/v1/message/document', { documentUrl: `data:;base64,${'A'.repeat(600 * 1024)}` }],
    ])
    expect(answers.map((a) => [a.status, a.error])).toEqual([
      [413, 'payload_too_large'],
      [413, 'payload_too_large'],
      [413, 'payload_too_large'],
    ])
    // Exactly the limit is fine.
    const exact = await t.post('/v1/message/document', {
      sessionId,
      phone: CONTACT,
      documentUrl: `data:;base64,${b64(new Uint8Array(MEDIA_MAX))}`,
    })
    expect(exact.status, JSON.stringify(exact.body)).toBe(200)
  })

  it('answers 404 for another workspace’s session, the same as for none, and for a quote of another chat', async () => {
    const other = t.addWorkspace('other')
    const bodies: [string, Record<string, unknown>][] = [
      ['/v1/message/video', { videoUrl: files.url('nothing.mp4') }],
      ['/v1/message/document', { documentUrl: files.url('nothing.pdf') }],
      ['/v1/message/contact', { contacts: [{ name: 'Ana', phones: ['15550000001'] }] }],
    ]
    const requested = files.requests.length
    for (const [path, body] of bodies) {
      const theirs = await t.post(path, { sessionId, phone: CONTACT, ...body }, { key: other.key })
      const none = await t.post(path, { sessionId: 'ses_doesnotexist', phone: CONTACT, ...body })
      expect([theirs.status, theirs.body.error]).toEqual([404, 'not_found'])
      expect(theirs.body.message).toBe(none.body.message.replace('ses_doesnotexist', sessionId))
    }
    expect(files.requests.length).toBe(requested) // nothing fetched for a session that is not theirs
    const quoted = await t.post('/v1/message/contact', {
      sessionId,
      phone: '15551238999',
      contacts: [{ name: 'Ana', phones: ['15550000001'] }],
      quoteId: (await t.get(`/v1/message/all?sessionId=${sessionId}&limit=1`)).body.messages[0].messageId,
    })
    expect([quoted.status, quoted.body.error]).toEqual([404, 'not_found'])
  })

  it('sends once for concurrent retries with one Idempotency-Key, and refuses the key for another body', async () => {
    files.serve('once.pdf', new TextEncoder().encode('%PDF-1.4\nonce\n%%EOF\n'))
    const body = { sessionId, phone: CONTACT, documentUrl: files.url('once.pdf'), fileName: 'once.pdf' }
    const headers = { 'idempotency-key': `doc-${Date.now()}` }
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => t.post('/v1/message/document', body, { headers })),
    )
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200])
    const ids = new Set(answers.map((a) => a.body.messageId))
    expect(ids.size).toBe(1)
    const [messageId] = ids
    await t.sim.contact(CONTACT).waitForMessage((m) => m.id === messageId)
    await sleep(200)
    expect(
      t.sim
        .contact(CONTACT)
        .inbox()
        .filter((m) => m.message.documentMessage?.fileName === 'once.pdf'),
    ).toHaveLength(1)
    const reused = await t.post('/v1/message/document', { ...body, fileName: 'other.pdf' }, { headers })
    expect([reused.status, reused.body.error]).toEqual([409, 'idempotency_key_reused'])
  })

  it('left the simulator no protocol violations', () => {
    expect(t.sim.violations()).toEqual([])
  })
})
