import type { AnyMessageContent, WASocket } from '@whiskeysockets/baileys'
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ControlApi } from '../control-api'
import { WhatsAppSimulator } from '../simulator'
import { closeSocket, pairByQr } from './harness'

const ACCOUNT = '15554100001'
const CAROL = '15554100101'

interface Case {
  name: string
  content: (bytes: Buffer) => AnyMessageContent
  mimetype: string
  /** Where rc14 uploads this kind (Defaults MEDIA_PATH_MAP) */
  uploadPath: string
  /** <enc mediatype> Baileys sets */
  mediatype: string
}

const CASES: Case[] = [
  {
    name: 'image',
    content: (image) => ({ image, mimetype: 'image/jpeg', jpegThumbnail: '' }),
    mimetype: 'image/jpeg',
    uploadPath: '/mms/image',
    mediatype: 'image',
  },
  {
    name: 'ptt voice note',
    content: (audio) => ({
      audio,
      mimetype: 'audio/ogg; codecs=opus',
      ptt: true,
      seconds: 3,
      waveform: new Uint8Array(64),
    }),
    mimetype: 'audio/ogg; codecs=opus',
    uploadPath: '/mms/audio',
    mediatype: 'ptt',
  },
  {
    name: 'audio',
    content: (audio) => ({ audio, mimetype: 'audio/mpeg', seconds: 5 }),
    mimetype: 'audio/mpeg',
    uploadPath: '/mms/audio',
    mediatype: 'audio',
  },
  {
    name: 'sticker',
    content: (sticker) => ({ sticker, mimetype: 'image/webp' }) as AnyMessageContent,
    mimetype: 'image/webp',
    uploadPath: '/mms/image',
    mediatype: 'sticker',
  },
  {
    name: 'video',
    content: (video) => ({ video, mimetype: 'video/mp4', jpegThumbnail: '', caption: 'clip' }),
    mimetype: 'video/mp4',
    uploadPath: '/mms/video',
    mediatype: 'video',
  },
  {
    name: 'document',
    content: (document) => ({ document, mimetype: 'application/pdf', fileName: 'a.pdf', caption: 'doc caption' }),
    mimetype: 'application/pdf',
    uploadPath: '/mms/document',
    mediatype: 'document',
  },
]

describe('media a contact received, by message id', () => {
  let sim: WhatsAppSimulator
  let api: ControlApi
  let sock: WASocket
  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
    api = await ControlApi.start(sim)
    sim.addContact(CAROL)
    sock = (await pairByQr(sim, ACCOUNT)).sock
  })
  afterAll(async () => {
    closeSocket(sock)
    await api.stop()
    await sim.stop()
  })

  for (const item of CASES) {
    it(`opens a ${item.name} in process and over GET /contacts/{phone}/media/{id}`, async () => {
      const bytes = randomBytes(3000)
      const sent = await sock.sendMessage(`${CAROL}@s.whatsapp.net`, item.content(bytes))
      const id = sent!.key.id!
      const received = await sim.contact(CAROL).waitForMessage((m) => m.id === id)
      expect(received.stanza.mediatype).toBe(item.mediatype)

      const opened = await sim.contact(CAROL).media(id)
      expect(opened.bytes.equals(bytes)).toBe(true)
      expect(opened.mimetype).toBe(item.mimetype)
      const upload = sim.mediaUploads().find((u) =>
        sim
          .contact(CAROL)
          .inbox()
          .some((m) => m.id === id && JSON.stringify(m.message).includes(u.directPath)),
      )
      expect(upload?.directPath).toContain(item.uploadPath)

      const response = await fetch(`${api.url}/contacts/${CAROL}/media/${id}`)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe(item.mimetype)
      expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true)
    })
  }

  it('answers 404 JSON for an unknown message and for a message without media', async () => {
    const sent = await sock.sendMessage(`${CAROL}@s.whatsapp.net`, { text: 'no media here' })
    await sim.contact(CAROL).waitForMessage((m) => m.id === sent?.key.id)
    const noMedia = await fetch(`${api.url}/contacts/${CAROL}/media/${sent!.key.id}`)
    expect({ status: noMedia.status, json: await noMedia.json() }).toMatchObject({
      status: 404,
      json: { error: 'no_media' },
    })
    const unknown = await fetch(`${api.url}/contacts/${CAROL}/media/3EB0NOSUCHMESSAGE`)
    expect({ status: unknown.status, json: await unknown.json() }).toMatchObject({
      status: 404,
      json: { error: 'unknown_message' },
    })
    await expect(sim.contact(CAROL).media('3EB0NOSUCHMESSAGE')).rejects.toThrow(/no message/)
    expect(sim.violations()).toEqual([])
  })
})
