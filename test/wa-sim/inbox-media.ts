// Finds the media attachment of a received message and opens it as the contact's phone would:
// the media type names the HKDF keys (Baileys' getMediaKeys), so a ptt voice note opens with
// 'audio' keys and a sticker with 'sticker' (= image) keys.
import { normalizeMessageContent } from '@whiskeysockets/baileys'
import type { MediaType, proto } from '@whiskeysockets/baileys'
import type { InboxMessage } from './contact'
import { SimulatorError } from './errors'
import { downloadAndDecryptMedia } from './media-download'
import type { MediaHost } from './media-host'

export interface MediaAttachment {
  /** The key name getMediaKeys uses for this attachment */
  mediaType: MediaType
  media: proto.Message.IImageMessage & { mimetype?: string | null }
}

export interface OpenedMedia {
  bytes: Buffer
  mimetype: string
  mediaType: MediaType
}

/** Message fields that carry an upload, with the media type their keys derive from. */
const MEDIA_FIELDS: [keyof proto.IMessage, MediaType][] = [
  ['imageMessage', 'image'],
  ['videoMessage', 'video'],
  ['ptvMessage', 'video'],
  ['audioMessage', 'audio'],
  ['stickerMessage', 'sticker'],
  ['documentMessage', 'document'],
]

const attachmentIn = (message: proto.IMessage | null | undefined): MediaAttachment | undefined => {
  for (const [field, mediaType] of MEDIA_FIELDS) {
    const media = message?.[field] as MediaAttachment['media'] | null | undefined
    if (media?.mediaKey) return { mediaType, media }
  }
  return undefined
}

/** The attachment of a message, looking through view-once / document-with-caption wrappers and interactive headers. */
export const mediaAttachmentOf = (message: proto.IMessage): MediaAttachment | undefined => {
  const content = normalizeMessageContent(message)
  return attachmentIn(content) ?? attachmentIn(content?.interactiveMessage?.header as proto.IMessage | undefined)
}

export const openInboxMedia = async (
  entry: InboxMessage | undefined,
  messageId: string,
  host: MediaHost,
): Promise<OpenedMedia> => {
  if (!entry) throw new SimulatorError('unknown_message', `no message ${messageId} in this inbox`, 404)
  const attachment = mediaAttachmentOf(entry.message)
  if (!attachment) throw new SimulatorError('no_media', `message ${messageId} carries no media`, 404)
  const bytes = await downloadAndDecryptMedia(
    attachment.media,
    attachment.mediaType,
    (path) => host.urlFor(path),
    host.tls.caPem,
  )
  return { bytes, mimetype: attachment.media.mimetype || 'application/octet-stream', mediaType: attachment.mediaType }
}
