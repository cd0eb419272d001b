// What a contact's phone builds to send a file: the bytes encrypted as WhatsApp media (AES-256-CBC
// under keys derived from a fresh media key for the kind, HMAC-SHA256 truncated to 10 bytes),
// uploaded to the media host under the kind's path, and the message that carries the keys.
import { getMediaKeys, hmacSign, proto, sha256 } from '@whiskeysockets/baileys'
import type { MediaType } from '@whiskeysockets/baileys'
import { createCipheriv, randomBytes } from 'node:crypto'
import { unixNow } from './node-utils'
import type { SimState } from './state'

export interface ImageContent {
  image: Buffer
  mimetype: string
  caption?: string
  width?: number
  height?: number
}
export interface VideoContent {
  video: Buffer
  mimetype?: string
  caption?: string
  seconds?: number
  width?: number
  height?: number
  /** Sent as a GIF (a looping video without sound): stanza mediatype `gif`. */
  gifPlayback?: boolean
}
export interface AudioContent {
  audio: Buffer
  mimetype?: string
  seconds?: number
  /** A voice note: stanza mediatype `ptt`, a waveform. */
  ptt?: boolean
}
export interface DocumentContent {
  document: Buffer
  mimetype?: string
  fileName: string
  caption?: string
}
export interface StickerContent {
  sticker: Buffer
  mimetype?: string
  animated?: boolean
  width?: number
  height?: number
}
export type MediaContent = ImageContent | VideoContent | AudioContent | DocumentContent | StickerContent

export const isMediaContent = (content: object): content is MediaContent =>
  'image' in content || 'video' in content || 'audio' in content || 'document' in content || 'sticker' in content

/** A built media message, with what the stanza says about it. */
export interface BuiltMedia {
  message: proto.Message
  /** <enc mediatype> */
  mediatype: string
}

/** The encrypted upload's fields every media message carries. */
interface Uploaded {
  url: string
  directPath: string
  mediaKey: Buffer
  fileSha256: Buffer
  fileEncSha256: Buffer
  fileLength: number
  mediaKeyTimestamp: number
}

/** Encrypts `plain` as a phone does for `keyType` and stores it on the media host under `uploadPath`. */
export const encryptAndUpload = async (
  state: SimState,
  plain: Buffer,
  keyType: MediaType,
  uploadPath: string,
): Promise<Uploaded> => {
  const mediaKey = randomBytes(32)
  const { iv, cipherKey, macKey } = await getMediaKeys(mediaKey, keyType)
  const cipher = createCipheriv('aes-256-cbc', cipherKey, iv)
  const encrypted = Buffer.concat([cipher.update(plain), cipher.final()])
  const mac = hmacSign(Buffer.concat([iv, encrypted]), macKey!).subarray(0, 10)
  const body = Buffer.concat([encrypted, mac])
  const stored = state.media.store(body, uploadPath)
  return {
    url: state.media.urlFor(stored.directPath),
    directPath: stored.directPath,
    mediaKey,
    fileSha256: Buffer.from(sha256(plain)),
    fileEncSha256: Buffer.from(sha256(body)),
    fileLength: plain.length,
    mediaKeyTimestamp: Number(unixNow()),
  }
}

/** A flat 64-sample waveform, as phones attach to voice notes. */
const WAVEFORM = Buffer.alloc(64, 40)

export const buildMedia = async (state: SimState, content: MediaContent): Promise<BuiltMedia> => {
  if ('image' in content) {
    const uploaded = await encryptAndUpload(state, content.image, 'image', '/mms/image')
    const { caption, mimetype, width, height } = content
    return {
      message: proto.Message.fromObject({ imageMessage: { ...uploaded, mimetype, caption, width, height } }),
      mediatype: 'image',
    }
  }
  if ('video' in content) {
    const uploaded = await encryptAndUpload(state, content.video, 'video', '/mms/video')
    const { caption, seconds, width, height, gifPlayback } = content
    const videoMessage = {
      ...uploaded,
      mimetype: content.mimetype ?? 'video/mp4',
      caption,
      seconds,
      width,
      height,
      gifPlayback,
    }
    return { message: proto.Message.fromObject({ videoMessage }), mediatype: gifPlayback ? 'gif' : 'video' }
  }
  if ('audio' in content) {
    const uploaded = await encryptAndUpload(state, content.audio, 'audio', '/mms/audio')
    const ptt = Boolean(content.ptt)
    const audioMessage = {
      ...uploaded,
      mimetype: content.mimetype ?? (ptt ? 'audio/ogg; codecs=opus' : 'audio/mpeg'),
      seconds: content.seconds,
      ptt,
      ...(ptt ? { waveform: WAVEFORM } : {}),
    }
    return { message: proto.Message.fromObject({ audioMessage }), mediatype: ptt ? 'ptt' : 'audio' }
  }
  if ('document' in content) {
    const uploaded = await encryptAndUpload(state, content.document, 'document', '/mms/document')
    const { fileName, caption } = content
    const documentMessage = {
      ...uploaded,
      mimetype: content.mimetype ?? 'application/octet-stream',
      fileName,
      title: fileName,
      ...(caption ? { caption } : {}),
    }
    // A captioned document travels wrapped, as current phones send it
    const message = caption ? { documentWithCaptionMessage: { message: { documentMessage } } } : { documentMessage }
    return { message: proto.Message.fromObject(message), mediatype: 'document' }
  }
  const uploaded = await encryptAndUpload(state, content.sticker, 'sticker', '/mms/image')
  const { width, height } = content
  const stickerMessage = {
    ...uploaded,
    mimetype: content.mimetype ?? 'image/webp',
    isAnimated: Boolean(content.animated),
    width,
    height,
  }
  return { message: proto.Message.fromObject({ stickerMessage }), mediatype: 'sticker' }
}
