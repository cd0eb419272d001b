import { createHash } from 'node:crypto'
import type { proto } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import { mediaAttachment, mediaSummary } from '../../../../src/engine/whatsapp/media/media-attachment'
import { describeMessage } from '../../../../src/engine/whatsapp/messages/message-content'

const sha = createHash('sha256').update('file').digest()
const upload = {
  url: 'https://mmg.example/v/t62/x',
  directPath: '/v/t62/x',
  mediaKey: new Uint8Array(32).fill(7),
  fileSha256: sha,
  fileEncSha256: new Uint8Array(32),
  fileLength: 1234,
}

describe('mediaAttachment / mediaSummary', () => {
  it('finds the file of each kind, with the key type its keys derive from', () => {
    const kinds: [proto.IMessage, string][] = [
      [{ imageMessage: upload }, 'image'],
      [{ videoMessage: upload }, 'video'],
      [{ ptvMessage: upload }, 'video'],
      [{ audioMessage: { ...upload, ptt: true } }, 'audio'],
      [{ documentMessage: upload }, 'document'],
      [{ stickerMessage: upload }, 'sticker'],
      [{ viewOnceMessageV2: { message: { imageMessage: upload } } }, 'image'],
      [{ documentWithCaptionMessage: { message: { documentMessage: upload } } }, 'document'],
    ]
    for (const [message, keyType] of kinds) expect(mediaAttachment(message)?.keyType).toBe(keyType)
  })

  it('has nothing for text, nor for a file without a usable key, path or hash', () => {
    expect(mediaAttachment({ conversation: 'hi' })).toBeUndefined()
    expect(mediaAttachment({ imageMessage: { ...upload, mediaKey: new Uint8Array(5) } })).toBeUndefined()
    expect(mediaAttachment({ imageMessage: { ...upload, directPath: null, url: null } })).toBeUndefined()
    expect(mediaAttachment({ imageMessage: { ...upload, fileSha256: null } })).toBeUndefined()
  })

  it('summarises what the sender declared: type, size, hash, name, length, dimensions', () => {
    const document = { ...upload, mimetype: 'application/pdf', fileName: 'a.pdf' }
    expect(mediaSummary(mediaAttachment({ documentMessage: document })!)).toEqual({
      mimetype: 'application/pdf',
      size: 1234,
      sha256: sha.toString('hex'),
      fileName: 'a.pdf',
    })
    const video = { ...upload, mimetype: 'video/mp4', seconds: 9, width: 640, height: 360 }
    expect(mediaSummary(mediaAttachment({ videoMessage: video })!)).toMatchObject({
      seconds: 9,
      width: 640,
      height: 360,
    })
    expect(mediaSummary(mediaAttachment({ stickerMessage: { ...upload, fileLength: -5 } })!)).toMatchObject({
      mimetype: 'application/octet-stream',
      size: 0,
    })
  })
})

describe('describeMessage: inbound media and contact cards', () => {
  it('records every kind with its content and content.media', () => {
    expect(
      describeMessage({ videoMessage: { ...upload, mimetype: 'video/mp4', caption: 'c', gifPlayback: true } }),
    ).toMatchObject({
      type: 'video',
      content: { caption: 'c', gifPlayback: true, media: { mimetype: 'video/mp4', size: 1234 } },
    })
    expect(describeMessage({ audioMessage: { ...upload, ptt: true, seconds: 4 } })).toMatchObject({
      type: 'ptt',
      content: { seconds: 4, media: { seconds: 4 } },
    })
    expect(describeMessage({ documentMessage: { ...upload, fileName: 'r.txt' } })).toMatchObject({
      type: 'document',
      content: { fileName: 'r.txt', media: { fileName: 'r.txt' } },
    })
  })

  it('parses contact cards, one or many (at most 50 people)', () => {
    const vcard = 'BEGIN:VCARD\nFN:Ana\nTEL;waid=15551230001:+1 555-123-0001\nEND:VCARD'
    expect(describeMessage({ contactMessage: { displayName: 'Ana', vcard } })).toEqual({
      type: 'contact',
      content: { name: 'Ana', contacts: [{ name: 'Ana', phones: ['15551230001'] }] },
    })
    const many = Array.from({ length: 80 }, (_, i) => ({ displayName: `P${i}`, vcard: '' }))
    const described = describeMessage({ contactsArrayMessage: { displayName: '80 contacts', contacts: many } })
    expect(described.content.contacts).toHaveLength(50)
    expect(described.content.contacts?.[3]).toEqual({ name: 'P3', phones: [] })
    expect(described.content.media).toBeUndefined()
  })
})
