// What a recipient's phone checks in a text's link preview and in a forwarded message's marks,
// recorded as violations where it would drop or misdraw them: a preview whose matchedText is not
// in the text, a thumbnail that is not a whole JPEG (or is larger than an inline thumbnail is),
// isForwarded without a forwardingScore or the other way round.
import type { proto } from '@whiskeysockets/baileys'
import { readJpeg } from './jpeg'

/** WhatsApp's apps draw an inline link thumbnail of a few hundred pixels; larger ones are refused. */
export const MAX_LINK_THUMBNAIL_SIDE = 400
export const MAX_LINK_THUMBNAIL_BYTES = 64 * 1024

export const linkPreviewProblem = (text: proto.Message.IExtendedTextMessage): string | undefined => {
  const hasPreview = !!(text.title || text.description || text.jpegThumbnail?.length)
  if (!text.matchedText) return hasPreview ? 'a link preview without matchedText' : undefined
  if (!(text.text ?? '').includes(text.matchedText)) return `matchedText "${text.matchedText}" is not in the text`
  if (!/^https?:\/\//i.test(text.matchedText)) return `matchedText "${text.matchedText}" is no http(s) URL`
  const thumbnail = text.jpegThumbnail
  if (!thumbnail?.length) return undefined
  if (thumbnail.length > MAX_LINK_THUMBNAIL_BYTES) return `a ${thumbnail.length}-byte jpegThumbnail`
  const jpeg = readJpeg(thumbnail)
  if (!jpeg.ok) return `a jpegThumbnail that is not a JPEG (${jpeg.reason})`
  if (jpeg.width > MAX_LINK_THUMBNAIL_SIDE || jpeg.height > MAX_LINK_THUMBNAIL_SIDE)
    return `a ${jpeg.width}×${jpeg.height} jpegThumbnail`
  return undefined
}

export const forwardProblem = (context: proto.IContextInfo | null | undefined): string | undefined => {
  if (!context) return undefined
  const score = context.forwardingScore ?? 0
  if (context.isForwarded && score < 1) return 'isForwarded without a forwardingScore'
  if (!context.isForwarded && score > 0) return `forwardingScore ${score} without isForwarded`
  return undefined
}

/** The contextInfo of a message's one content field, whatever its kind. */
export const contextOf = (content: proto.IMessage): proto.IContextInfo | undefined => {
  for (const [key, value] of Object.entries(content)) {
    if (key === 'messageContextInfo' || !value || typeof value !== 'object') continue
    const context = (value as { contextInfo?: proto.IContextInfo | null }).contextInfo
    if (context) return context
  }
  return undefined
}
