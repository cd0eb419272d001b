import type { GatewayConfig } from '../config'
import { GatewayError } from '../errors'
import type { MediaTools } from '../services/messages/media-tools'
import type { MediaConverter } from './converter'
import { STICKER_SIZE } from './converter'
import { createMediaFetcher, type MediaFetcher } from './fetcher'
import { createFfmpegConverter } from './ffmpeg'
import { imageDimensions, sniffType } from './sniff'

/** Image types WhatsApp shows as photos; anything else is refused rather than sent broken. */
const PHOTO_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp'])

/**
 * The media layer as services use it: the guarded fetcher for client URLs, type sniffing
 * from bytes, and the converter (ffmpeg) for voice notes and stickers.
 */
export function createMediaTools(
  config: Pick<GatewayConfig, 'allowPrivateAddresses' | 'media'>,
  parts: { fetcher?: MediaFetcher; converter?: MediaConverter } = {},
): MediaTools {
  const fetcher = parts.fetcher ?? createMediaFetcher(config)
  // ffmpeg is located on first use, so a gateway that never converts never looks for it.
  let converter = parts.converter
  const convert = () => (converter ??= createFfmpegConverter({ ffmpegPath: config.media.ffmpegPath, timeoutMs: config.media.timeoutMs }))

  return {
    fetch: async (url) => (await fetcher.fetch(url)).bytes,

    async image(bytes) {
      const sniffed = await sniffType(bytes)
      if (!sniffed || !PHOTO_TYPES.has(sniffed.mimetype)) {
        throw new GatewayError('media_unavailable', `imageUrl is not a JPEG, PNG or WebP image (the bytes are ${sniffed?.mimetype ?? 'of no known type'})`, {
          field: 'imageUrl',
        })
      }
      return { mimetype: sniffed.mimetype, ...imageDimensions(bytes) }
    },

    audio: (bytes) => convert().probeAudio(bytes),
    voiceNote: (bytes) => convert().toVoiceNote(bytes),

    async sticker(bytes) {
      const sticker = await convert().toSticker(bytes)
      return { ...sticker, width: STICKER_SIZE, height: STICKER_SIZE }
    },
  }
}
