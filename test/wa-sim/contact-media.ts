// What a contact's phone builds to send a file: the bytes encrypted as WhatsApp media (AES-256-CBC
// under keys derived from a fresh media key for the kind, HMAC-SHA256 truncated to 10 bytes),
// uploaded to the media host under the kind's path, and the message that carries the keys.
import { getMediaKeys, hmacSign, proto, sha256 } from '@whiskeysockets/baileys'
import type { MediaType } from '@whiskeysockets/baileys'
import { createCipheriv, randomBytes } from 'node:crypto'
import { SimulatorError } from './errors'
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
/**
 * A file that is not what its message says, for tests of what a client checks: `mac` alters the
 * upload's MAC (its encrypted SHA-256 follows, the file decrypts right: only the MAC tells), `sha256` declares another
 * file's hash, `length` one byte more than there is.
 */
export type Tamper = 'mac' | 'sha256' | 'length'

/**
 * A message that lies about where its file is: these replace the `url` and `directPath` the
 * upload got (null leaves the field out). WhatsApp relays message content end to end encrypted
 * and never checks it, so any contact can send this; for tests of what a client fetches.
 */
export interface MediaWhere {
  url?: string | null
  directPath?: string | null
}

export type MediaContent = (ImageContent | VideoContent | AudioContent | DocumentContent | StickerContent) & {
  tamper?: Tamper
  where?: MediaWhere
}

/** `where` as strictly as the rest: at least one field, each a string or null, nothing else. */
const checkWhere = (where: MediaWhere): void => {
  const keys = Object.keys(where)
  if (keys.length === 0 || keys.some((key) => key !== 'url' && key !== 'directPath'))
    throw new SimulatorError('invalid_request', '"where" names url and/or directPath, nothing else')
  for (const key of keys) {
    const value = where[key as keyof MediaWhere]
    if (value !== null && typeof value !== 'string')
      throw new SimulatorError('invalid_request', `"where.${key}" must be a string or null`)
  }
}

/** The upload's fields with `where` applied (a field set to null is left out). */
const placed = (uploaded: Uploaded, where: MediaWhere | undefined): Partial<Uploaded> => {
  if (!where) return uploaded
  checkWhere(where)
  const fields: Partial<Uploaded> = { ...uploaded }
  for (const key of ['url', 'directPath'] as const) {
    const value = where[key]
    if (value === null) delete fields[key]
    else if (value !== undefined) fields[key] = value
  }
  return fields
}

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
  tamper?: Tamper,
): Promise<Uploaded> => {
  const mediaKey = randomBytes(32)
  const { iv, cipherKey, macKey } = await getMediaKeys(mediaKey, keyType)
  const cipher = createCipheriv('aes-256-cbc', cipherKey, iv)
  const encrypted = Buffer.concat([cipher.update(plain), cipher.final()])
  const mac = hmacSign(Buffer.concat([iv, encrypted]), macKey!).subarray(0, 10)
  const body = Buffer.concat([encrypted, mac])
  if (tamper === 'mac') body[body.length - 1] = (body[body.length - 1] ?? 0) ^ 0xff
  const stored = state.media.store(body, uploadPath)
  return {
    url: state.media.urlFor(stored.directPath),
    directPath: stored.directPath,
    mediaKey,
    fileSha256: Buffer.from(sha256(tamper === 'sha256' ? Buffer.concat([plain, Buffer.from('x')]) : plain)),
    fileEncSha256: Buffer.from(sha256(body)),
    fileLength: plain.length + (tamper === 'length' ? 1 : 0),
    mediaKeyTimestamp: Number(unixNow()),
  }
}

/** A flat 64-sample waveform, as phones attach to voice notes. */
const WAVEFORM = Buffer.alloc(64, 40)

export const buildMedia = async (state: SimState, content: MediaContent): Promise<BuiltMedia> => {
  const upload = async (plain: Buffer, keyType: MediaType, uploadPath: string) =>
    placed(await encryptAndUpload(state, plain, keyType, uploadPath, content.tamper), content.where)
  if ('image' in content) {
    const uploaded = await upload(content.image, 'image', '/mms/image')
    const { caption, mimetype, width, height } = content
    return {
      message: proto.Message.fromObject({ imageMessage: { ...uploaded, mimetype, caption, width, height } }),
      mediatype: 'image',
    }
  }
  if ('video' in content) {
    const uploaded = await upload(content.video, 'video', '/mms/video')
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
    const uploaded = await upload(content.audio, 'audio', '/mms/audio')
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
    const uploaded = await upload(content.document, 'document', '/mms/document')
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
  const uploaded = await upload(content.sticker, 'sticker', '/mms/image')
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
