import { normalizeMessageContent, type proto } from '@whiskeysockets/baileys'
import type { MediaSummary } from '../../../shared/message-content'

/** The HKDF info names of the kinds of file a message carries (Baileys' MediaType). */
export type MediaKeyType = 'image' | 'video' | 'audio' | 'document' | 'sticker'

type MediaFields = proto.Message.IImageMessage &
  Pick<proto.Message.IDocumentMessage, 'fileName'> &
  Pick<proto.Message.IVideoMessage, 'seconds'>

/** A file a message carries, with what is needed to fetch and open it. */
export interface MediaAttachment {
  keyType: MediaKeyType
  media: MediaFields
}

/** Message fields that carry an upload, with the key type their keys derive from. */
const FIELDS: [keyof proto.IMessage, MediaKeyType][] = [
  ['imageMessage', 'image'],
  ['videoMessage', 'video'],
  ['ptvMessage', 'video'],
  ['audioMessage', 'audio'],
  ['documentMessage', 'document'],
  ['stickerMessage', 'sticker'],
]

/** Pure: the file of a message (through view-once, ephemeral and captioned-document wrappers), if it has a usable one. */
export function mediaAttachment(message: proto.IMessage | null | undefined): MediaAttachment | undefined {
  const content = normalizeMessageContent(message)
  for (const [field, keyType] of FIELDS) {
    const media = content?.[field] as MediaFields | null | undefined
    if (!media) continue
    const usable = media.mediaKey?.length === 32 && (media.directPath || media.url) && media.fileSha256?.length === 32
    return usable ? { keyType, media } : undefined
  }
  return undefined
}

const positive = (value: unknown) => {
  const n = Number(value ?? 0)
  return Number.isFinite(n) && n > 0 ? n : undefined
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

/** Pure: the API's summary of an attachment. */
export function mediaSummary({ media }: MediaAttachment): MediaSummary {
  const summary: MediaSummary = {
    mimetype: media.mimetype || 'application/octet-stream',
    size: positive(media.fileLength) ?? 0,
    sha256: hex(media.fileSha256!),
  }
  if (media.fileName) summary.fileName = media.fileName
  const seconds = positive(media.seconds)
  if (seconds !== undefined) summary.seconds = seconds
  const width = positive(media.width)
  const height = positive(media.height)
  if (width !== undefined) summary.width = width
  if (height !== undefined) summary.height = height
  return summary
}
