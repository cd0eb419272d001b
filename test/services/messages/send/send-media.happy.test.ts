import { createHash } from 'node:crypto'
import ICAL from 'ical.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { declaredVideo } from '../../../../src/media/ffmpeg/video-probe'
import { fixtures } from '../../../support/media-fixtures'
import { startMediaServer, type MediaServer } from '../../../support/media-server'
import { startSimulatedGateway, type SimulatedGateway } from '../../../support/simulated-gateway'
import { describeMedia } from '../../../support/video-probe'

const ACCOUNT = '15550017001'
const CONTACT = '15551237001'
const FRIEND = '15551237002'

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
const isJpeg = (bytes: Uint8Array | null | undefined) =>
  !!bytes && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes.at(-2) === 0xff && bytes.at(-1) === 0xd9
const dataUrl = (type: string, bytes: Uint8Array) => `data:${type};base64,${Buffer.from(bytes).toString('base64')}`
/** A small but real PDF: file-type knows it by its %PDF header. */
const pdf = () =>
  new Uint8Array(
    Buffer.from(
      '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
    ),
  )

/**
 * The video, document and contact sends through the real Baileys client to the simulator: what
 * the contact's phone decrypts (bytes by sha256, thumbnails, durations, file names, vCard text
 * read back by an independent vCard parser), from URLs and from data: URLs, 1:1 and in a group.
 */
describe('sending videos, documents and contact cards', () => {
  let t: SimulatedGateway
  let files: MediaServer
  let sessionId: string

  beforeAll(async () => {
    files = await startMediaServer()
    t = await startSimulatedGateway({ config: { allowPrivateAddresses: true, bodyLimitBytes: 4 * 1024 * 1024 } })
    t.sim.addContact(CONTACT)
    t.sim.addContact(FRIEND)
    sessionId = await t.pairByQr('media-sender', ACCOUNT)
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await files.close()
  })

  const received = (messageId: string, phone = CONTACT) =>
    t.sim.contact(phone).waitForMessage((m) => m.id === messageId)
  const media = (messageId: string, phone = CONTACT) => t.sim.contact(phone).media(messageId)

  it('sends an MP4 (H.264/AAC) byte for byte, with its duration, size and a JPEG thumbnail', async () => {
    const mp4 = await fixtures.mp4(3)
    files.serve('clip.mp4', mp4, 'application/octet-stream')
    const { status, body } = await t.post('/v1/message/video', {
      sessionId,
      phone: CONTACT,
      videoUrl: files.url('clip.mp4'),
      caption: 'a clip',
    })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body).toMatchObject({
      type: 'video',
      content: { caption: 'a clip', mimetype: 'video/mp4', seconds: 3, width: 320, height: 240 },
    })
    const video = (await received(body.messageId)).message.videoMessage!
    expect(video).toMatchObject({ caption: 'a clip', mimetype: 'video/mp4', seconds: 3, width: 320, height: 240 })
    expect(video.gifPlayback).toBeFalsy()
    expect(isJpeg(video.jpegThumbnail)).toBe(true)
    expect(sha256((await media(body.messageId)).bytes)).toBe(sha256(mp4))
  })

  it('converts a WebM to an MP4 WhatsApp plays (H.264 + AAC), with its duration and thumbnail', async () => {
    const webm = await fixtures.webm(2)
    files.serve('clip.webm', webm, 'video/webm')
    const { status, body } = await t.post('/v1/message/video', {
      sessionId,
      phone: CONTACT,
      videoUrl: files.url('clip.webm'),
    })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body.content).toMatchObject({ mimetype: 'video/mp4', seconds: 2, width: 320, height: 240 })
    const video = (await received(body.messageId)).message.videoMessage!
    expect(isJpeg(video.jpegThumbnail)).toBe(true)
    const bytes = (await media(body.messageId)).bytes
    expect(Buffer.from(bytes.subarray(4, 8)).toString('latin1')).toBe('ftyp')
    expect(declaredVideo(await describeMedia(bytes))).toMatchObject({
      codec: 'h264',
      pixelFormat: 'yuv420p',
      audioCodec: 'aac',
      width: 320,
      height: 240,
    })
  })

  it('turns a GIF into a silent looping MP4 with gifPlayback', async () => {
    files.serve('moving.gif', await fixtures.animatedGif(), 'image/gif')
    const { status, body } = await t.post('/v1/message/video', {
      sessionId,
      phone: CONTACT,
      videoUrl: files.url('moving.gif'),
      gifPlayback: true,
    })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body.content).toMatchObject({ mimetype: 'video/mp4', gifPlayback: true, seconds: 2 })
    const video = (await received(body.messageId)).message.videoMessage!
    expect(video.gifPlayback).toBe(true)
    const described = declaredVideo(await describeMedia((await media(body.messageId)).bytes))
    expect(described).toMatchObject({ codec: 'h264' })
    expect(described?.audioCodec).toBeUndefined()
  })

  it('sends any file as a document: bytes unchanged, type sniffed, name from the URL made safe', async () => {
    const report = pdf()
    files.serve('files/Q3%20report.pdf', report, 'text/plain')
    const { status, body } = await t.post('/v1/message/document', {
      sessionId,
      phone: CONTACT,
      documentUrl: files.url('files/Q3%20report.pdf'),
      caption: 'the report',
    })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body).toMatchObject({
      type: 'document',
      content: { mimetype: 'application/pdf', fileName: 'Q3 report.pdf', caption: 'the report' },
    })
    const document = (await received(body.messageId)).message.documentMessage!
    expect(document).toMatchObject({ mimetype: 'application/pdf', fileName: 'Q3 report.pdf', caption: 'the report' })
    expect(sha256((await media(body.messageId)).bytes)).toBe(sha256(report))
  })

  it('names a document from the body, and calls unknown bytes application/octet-stream', async () => {
    const blob = new Uint8Array(50_000).map((_, i) => (i * 7919) % 251)
    files.serve('download', blob)
    const { status, body } = await t.post('/v1/message/document', {
      sessionId,
      phone: CONTACT,
      documentUrl: files.url('download'),
      fileName: 'Résumé; final, "v2".bin',
    })
    expect(status, JSON.stringify(body)).toBe(200)
    const document = (await received(body.messageId)).message.documentMessage!
    expect(document).toMatchObject({ mimetype: 'application/octet-stream', fileName: 'Résumé; final, "v2".bin' })
    expect(sha256((await media(body.messageId)).bytes)).toBe(sha256(blob))
  })

  it('makes a URL’s hostile last segment a plain file name (no separators, controls or bidi overrides)', async () => {
    files.serve('x/..%2F..%2Fetc%2Fpasswd%0A%E2%80%AEfdp.exe', pdf())
    const { status, body } = await t.post('/v1/message/document', {
      sessionId,
      phone: CONTACT,
      documentUrl: files.url('x/..%2F..%2Fetc%2Fpasswd%0A%E2%80%AEfdp.exe'),
    })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body.content.fileName).toBe('etcpasswdfdp.exe')
    expect((await received(body.messageId)).message.documentMessage?.fileName).toBe('etcpasswdfdp.exe')
  })

  it('shares a contact card whose every value round-trips through the vCard the contact decrypts', async () => {
    const name = 'Doe; John, "\\o/" 🎉\nSecond line'
    const organization = 'Acme; Widgets, Inc.\\EU'
    const { status, body } = await t.post('/v1/message/contact', {
      sessionId,
      phone: CONTACT,
      contacts: [{ name, phones: ['+1 555-123-7002', '44 20 7946 0958'], organization, email: 'john@example.com' }],
    })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body).toMatchObject({
      type: 'contact',
      content: {
        name,
        contacts: [{ name, phones: ['15551237002', '442079460958'], organization, email: 'john@example.com' }],
      },
    })
    const card = (await received(body.messageId)).message.contactMessage!
    expect(card.displayName).toBe(name)
    const vcard = new ICAL.Component(ICAL.parse(card.vcard!) as unknown[])
    expect(vcard.getFirstPropertyValue('version')).toBe('3.0')
    expect(vcard.getFirstPropertyValue('fn')).toBe(name)
    expect(vcard.getFirstPropertyValue('n')).toEqual(name)
    expect(vcard.getFirstPropertyValue('org')).toBe(organization)
    expect(vcard.getFirstPropertyValue('email')).toBe('john@example.com')
    const phones = vcard.getAllProperties('tel').map((tel) => [tel.getParameter('waid'), tel.getFirstValue()])
    expect(phones).toEqual([
      ['15551237002', '+15551237002'],
      ['442079460958', '+442079460958'],
    ])
  })

  it('shares several cards as one contacts-array message', async () => {
    const contacts = ['Ana', 'Bo', 'Cy'].map((name, i) => ({ name, phones: [`1555000000${i}`] }))
    const { status, body } = await t.post('/v1/message/contact', { sessionId, phone: CONTACT, contacts })
    expect(status, JSON.stringify(body)).toBe(200)
    const array = (await received(body.messageId)).message.contactsArrayMessage!
    expect(array.displayName).toBe('3 contacts')
    expect(
      array.contacts?.map((c) => new ICAL.Component(ICAL.parse(c.vcard!) as unknown[]).getFirstPropertyValue('fn')),
    ).toEqual(['Ana', 'Bo', 'Cy'])
  })

  it('takes data: URLs for every media field: image, audio, sticker, video and document', async () => {
    const png = await fixtures.png()
    const mp3 = await fixtures.mp3(2)
    const mp4 = await fixtures.mp4(1)
    const report = pdf()
    const sends = [
      ['/v1/message/image', { imageUrl: dataUrl('image/png', png) }, png],
      ['/v1/message/audio', { audioUrl: dataUrl('audio/mpeg', mp3) }, mp3],
      ['/v1/message/sticker', { stickerUrl: dataUrl('image/png', png) }, undefined],
      ['/v1/message/video', { videoUrl: dataUrl('video/mp4', mp4) }, mp4],
      ['/v1/message/document', { documentUrl: dataUrl('application/pdf', report), fileName: 'inline.pdf' }, report],
      ['/v1/message/document', { documentUrl: `data:;base64,${Buffer.from(report).toString('base64')}` }, report],
    ] as const
    for (const [path, source, original] of sends) {
      const { status, body } = await t.post(path, { sessionId, phone: CONTACT, ...source })
      expect(status, `${path} ${JSON.stringify(body)}`).toBe(200)
      await received(body.messageId)
      const opened = await media(body.messageId)
      if (original) expect(sha256(opened.bytes), path).toBe(sha256(original))
      else expect(opened.bytes.byteLength).toBeGreaterThan(0)
    }
    const untitled = (await t.get(`/v1/message/all?sessionId=${sessionId}&limit=1`)).body.messages[0]
    expect(untitled.content).toMatchObject({ fileName: 'document', mimetype: 'application/pdf' })
  })

  it('sends a document and a video into a group, quoting an earlier message of it', async () => {
    const group = t.sim.createGroup('Files', [ACCOUNT, CONTACT, FRIEND], ACCOUNT)
    const first = await t.post('/v1/message/text', { sessionId, phone: group.jid, message: 'files follow' })
    expect(first.status).toBe(200)
    const report = pdf()
    files.serve('minutes.pdf', report)
    const { status, body } = await t.post('/v1/message/document', {
      sessionId,
      phone: group.jid,
      documentUrl: files.url('minutes.pdf'),
      quoteId: first.body.messageId,
    })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body).toMatchObject({ phone: group.jid, quoteId: first.body.messageId })
    for (const phone of [CONTACT, FRIEND]) {
      const entry = await received(body.messageId, phone)
      expect(entry.chat).toBe(group.jid)
      expect(entry.message.documentMessage?.contextInfo?.stanzaId).toBe(first.body.messageId)
      expect(sha256((await media(body.messageId, phone)).bytes)).toBe(sha256(report))
    }
    files.serve('group.mp4', await fixtures.mp4(1))
    const video = await t.post('/v1/message/video', { sessionId, phone: group.jid, videoUrl: files.url('group.mp4') })
    expect(video.status, JSON.stringify(video.body)).toBe(200)
    expect(isJpeg((await received(video.body.messageId, FRIEND)).message.videoMessage?.jpegThumbnail)).toBe(true)
  })

  it('left the simulator no protocol violations', () => {
    expect(t.sim.violations()).toEqual([])
  })
})
