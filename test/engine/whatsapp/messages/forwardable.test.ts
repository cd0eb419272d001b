import { proto } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import { forwardRefusal } from '../../../../src/engine/whatsapp/messages/forwardable'

const encode = (message: proto.IMessage) => proto.Message.encode(message).finish()
const image = { url: 'https://mmg.test/x', directPath: '/mms/image/x', mimetype: 'image/jpeg' }

describe('forwardRefusal', () => {
  it('lets a text, an image, a document with caption and an ephemeral message through', () => {
    expect(forwardRefusal(encode({ conversation: 'hi' }))).toBeUndefined()
    expect(forwardRefusal(encode({ imageMessage: image }))).toBeUndefined()
    expect(
      forwardRefusal(encode({ documentWithCaptionMessage: { message: { documentMessage: { caption: 'c' } } } })),
    ).toBeUndefined()
    expect(forwardRefusal(encode({ ephemeralMessage: { message: { conversation: 'hi' } } }))).toBeUndefined()
  })

  it('refuses view-once messages, wrapped or flagged, as WhatsApp’s apps do', () => {
    expect(
      forwardRefusal(encode({ viewOnceMessageV2: { message: { imageMessage: { ...image, viewOnce: true } } } })),
    ).toBe('it is a view-once message')
    expect(forwardRefusal(encode({ viewOnceMessage: { message: { videoMessage: {} } } }))).toBe(
      'it is a view-once message',
    )
    expect(forwardRefusal(encode({ imageMessage: { ...image, viewOnce: true } }))).toBe('it is a view-once message')
  })

  it('refuses a proto that does not decode or holds nothing', () => {
    expect(forwardRefusal(new Uint8Array([0xff, 0xff, 0xff]))).toBe('its stored content cannot be read')
    expect(forwardRefusal(encode({}))).toBe('it has no content')
  })
})
