import type { proto } from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixtures } from '../../../support/media-fixtures'
import { readWebpInfo } from '../../../../src/media/webp-header'
import { startMediaServer, type MediaServer } from '../../../support/media-server'
import { startSimulatedGateway, type SimulatedGateway } from '../../../support/simulated-gateway'

const ACCOUNT = '15550010001'
const CONTACT = '15551230001'

/**
 * Every send endpoint through the real Baileys client to the simulator, asserting what the
 * contact's phone decrypted: text, media bytes, voice-note flag and codec, sticker size and
 * animation, coordinates and the quoted stanza id.
 */
describe('sending each kind of message', () => {
  let t: SimulatedGateway
  let files: MediaServer
  let sessionId: string

  beforeAll(async () => {
    files = await startMediaServer()
    // The media server is on loopback: the operator's switch lets the fetcher reach it.
    t = await startSimulatedGateway({ config: { allowPrivateAddresses: true } })
    t.sim.addContact(CONTACT)
    sessionId = await t.pairByQr('sender', ACCOUNT)
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await files.close()
  })

  const received = (messageId: string) => t.sim.contact(CONTACT).waitForMessage((m) => m.id === messageId)
  const textOf = (message: proto.IMessage | null | undefined) =>
    message?.conversation ?? message?.extendedTextMessage?.text

  it('sends text and answers the pending record under WhatsApp’s message id', async () => {
    const { status, body } = await t.post('/v1/message/text', {
      sessionId,
      phone: CONTACT,
      message: 'Hello from the gateway',
    })
    expect(status).toBe(200)
    expect(body).toMatchObject({
      sessionId,
      phone: CONTACT,
      direction: 'outbound',
      type: 'text',
      content: { text: 'Hello from the gateway' },
      quoteId: null,
    })
    expect(['pending', 'sent']).toContain(body.status)
    expect(body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    const inbox = await received(body.messageId)
    expect(textOf(inbox.message)).toBe('Hello from the gateway')
    expect(t.sim.violations()).toEqual([])
  })

  it('accepts the SDK’s names (to, text) and pasted phone formatting', async () => {
    const { status, body } = await t.post('/v1/message/text', { sessionId, to: '+1 555-123-0001', text: 'alias' })
    expect(status).toBe(200)
    expect(body.phone).toBe(CONTACT)
    expect(textOf((await received(body.messageId)).message)).toBe('alias')
  })

  it('quotes a message: the contact sees the quoted stanza id', async () => {
    const first = await t.post('/v1/message/text', { sessionId, phone: CONTACT, message: 'original' })
    const reply = await t.post('/v1/message/text', {
      sessionId,
      phone: CONTACT,
      message: 'reply',
      quoteId: first.body.messageId,
    })
    expect(reply.status).toBe(200)
    expect(reply.body.quoteId).toBe(first.body.messageId)
    const inbox = await received(reply.body.messageId)
    expect(inbox.message.extendedTextMessage?.text).toBe('reply')
    expect(inbox.message.extendedTextMessage?.contextInfo?.stanzaId).toBe(first.body.messageId)
    expect(textOf(inbox.message.extendedTextMessage?.contextInfo?.quotedMessage)).toBe('original')
  })

  it('sends an image as fetched, with its sniffed type, dimensions and caption', async () => {
    const png = await fixtures.png()
    files.serve('photo.bin', png, 'text/plain') // the header lies; the bytes are a PNG
    const { status, body } = await t.post('/v1/message/image', {
      sessionId,
      phone: CONTACT,
      imageUrl: files.url('photo.bin'),
      caption: 'a picture',
    })
    expect(status).toBe(200)
    expect(body).toMatchObject({
      type: 'image',
      content: { caption: 'a picture', mimetype: 'image/png', width: 320, height: 240 },
    })
    const inbox = await received(body.messageId)
    expect(inbox.message.imageMessage).toMatchObject({
      caption: 'a picture',
      mimetype: 'image/png',
      width: 320,
      height: 240,
    })
    const media = await t.sim.contact(CONTACT).media(body.messageId)
    expect(Buffer.from(media.bytes).equals(Buffer.from(png))).toBe(true)
  })

  it('sends an mp3 as a voice note: OGG/Opus, ptt, with seconds and a waveform', async () => {
    files.serve('voice.mp3', await fixtures.mp3(3), 'audio/mpeg')
    const { status, body } = await t.post('/v1/message/audio', {
      sessionId,
      phone: CONTACT,
      audioUrl: files.url('voice.mp3'),
      ptt: true,
    })
    expect(status).toBe(200)
    expect(body).toMatchObject({ type: 'ptt', content: { mimetype: 'audio/ogg; codecs=opus' } })
    const audio = (await received(body.messageId)).message.audioMessage!
    expect(audio.ptt).toBe(true)
    expect(audio.mimetype).toBe('audio/ogg; codecs=opus')
    expect(Number(audio.seconds)).toBeGreaterThanOrEqual(2)
    expect(Number(audio.seconds)).toBeLessThanOrEqual(4)
    expect(audio.waveform?.length).toBe(64)
    const media = await t.sim.contact(CONTACT).media(body.messageId)
    expect(Buffer.from(media.bytes).subarray(0, 4).toString('latin1')).toBe('OggS')
    expect(Buffer.from(media.bytes).includes(Buffer.from('OpusHead'))).toBe(true)
  })

  it('sends audio with ptt false as the file it is', async () => {
    const mp3 = await fixtures.mp3(2)
    files.serve('song.mp3', mp3, 'application/octet-stream')
    const { status, body } = await t.post('/v1/message/audio', {
      sessionId,
      phone: CONTACT,
      audioUrl: files.url('song.mp3'),
      ptt: false,
    })
    expect(status).toBe(200)
    expect(body.type).toBe('audio')
    const audio = (await received(body.messageId)).message.audioMessage!
    expect(audio.ptt).toBeFalsy()
    expect(audio.mimetype).toBe('audio/mpeg')
    expect(Buffer.from((await t.sim.contact(CONTACT).media(body.messageId)).bytes).equals(Buffer.from(mp3))).toBe(true)
  })

  it('turns a GIF into an animated 512×512 WebP sticker and a PNG-like WebP into a static one', async () => {
    files.serve('moving.gif', await fixtures.animatedGif(), 'image/gif')
    const animated = await t.post('/v1/message/sticker', {
      sessionId,
      phone: CONTACT,
      stickerUrl: files.url('moving.gif'),
    })
    expect(animated.status).toBe(200)
    expect(animated.body).toMatchObject({ type: 'sticker', content: { animated: true, width: 512, height: 512 } })
    const sticker = (await received(animated.body.messageId)).message.stickerMessage!
    expect(sticker.isAnimated).toBe(true)
    const bytes = (await t.sim.contact(CONTACT).media(animated.body.messageId)).bytes
    expect(readWebpInfo(bytes)).toMatchObject({ width: 512, height: 512, animated: true })
    expect(readWebpInfo(bytes)!.frames).toBeGreaterThan(1)

    files.serve('still.webp', await fixtures.staticWebp(), 'image/webp')
    const still = await t.post('/v1/message/sticker', {
      sessionId,
      phone: CONTACT,
      stickerUrl: files.url('still.webp'),
    })
    expect(still.status).toBe(200)
    await received(still.body.messageId)
    expect(readWebpInfo((await t.sim.contact(CONTACT).media(still.body.messageId)).bytes)).toMatchObject({
      width: 512,
      height: 512,
      animated: false,
    })
  })

  it('shares a location with exact coordinates', async () => {
    const { status, body } = await t.post('/v1/message/location', {
      sessionId,
      phone: CONTACT,
      latitude: -33.8568,
      longitude: 151.2153,
    })
    expect(status).toBe(200)
    expect(body).toMatchObject({ type: 'location', content: { latitude: -33.8568, longitude: 151.2153 } })
    const location = (await received(body.messageId)).message.locationMessage!
    expect(location.degreesLatitude).toBe(-33.8568)
    expect(location.degreesLongitude).toBe(151.2153)
  })

  it('left the simulator no protocol violations', () => {
    expect(t.sim.violations()).toEqual([])
  })
})
