import type { GatewayConfig } from '../config'
import { GatewayError } from '../errors'
import type { MediaTools } from './port'
import type { MediaConverter } from './converter'
import {
  LINK_THUMBNAIL_SIDE,
  PROFILE_PICTURE_MAX_INPUT_SIDE,
  PROFILE_PICTURE_MIN_SIDE,
  PROFILE_PICTURE_SIDE,
  STICKER_SIZE,
} from './converter'
import { createMediaFetcher, type MediaFetcher } from './fetcher'
import { checkImage } from './image-check'
import { createMediaLoader } from './media-source'

/** Image types WhatsApp shows as photos; anything else is refused rather than sent broken. */
const PHOTO_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp'])

/** The real type and size of a photo whose whole file holds together; 422 naming `field` otherwise. */
async function wholePhoto(bytes: Uint8Array, field: 'imageUrl' | 'pictureUrl' | 'og:image') {
  const { sniffType } = await import('./sniff')
  const sniffed = await sniffType(bytes)
  if (!sniffed || !PHOTO_TYPES.has(sniffed.mimetype)) {
    throw new GatewayError(
      'media_unavailable',
      `${field} is not a JPEG, PNG or WebP image (the bytes are ${sniffed?.mimetype ?? 'of no known type'})`,
      { field },
    )
  }
  // A right signature is not a picture: the whole file must hold together, or the contact gets garbage.
  const checked = checkImage(bytes, sniffed.mimetype)
  if (!checked.ok) {
    throw new GatewayError(
      'media_unavailable',
      `${field} is not a whole ${sniffed.mimetype} image: ${checked.reason}`,
      {
        field,
        reason: checked.reason,
      },
    )
  }
  return { mimetype: sniffed.mimetype, width: checked.width, height: checked.height }
}

/**
 * The media layer as services use it: the media source (guarded fetcher or data: URL), type
 * sniffing from bytes, and the converter (ffmpeg) for voice notes, stickers and video.
 */
export function createMediaTools(
  config: Pick<GatewayConfig, 'allowPrivateAddresses' | 'media'>,
  parts: { fetcher?: MediaFetcher; converter?: MediaConverter } = {},
): MediaTools {
  const load = createMediaLoader(parts.fetcher ?? createMediaFetcher(config), config.media.maxBytes)
  // The converter (ffmpeg) and the sniffers (file-type, image-size) load on first use, so a
  // gateway that never sends media never loads them, and never looks for ffmpeg.
  let converter: Promise<MediaConverter> | undefined = parts.converter && Promise.resolve(parts.converter)
  const convert = () =>
    (converter ??= import('./ffmpeg')
      .then(({ createFfmpegConverter }) =>
        createFfmpegConverter({
          ffmpegPath: config.media.ffmpegPath,
          timeoutMs: config.media.timeoutMs,
          maxSeconds: config.media.maxSeconds,
          maxOutputBytes: config.media.maxBytes,
        }),
      )
      .catch((error: unknown) => {
        converter = undefined // not found now (e.g. FFMPEG_PATH fixed later): look again next time
        throw error
      }))

  return {
    load,

    image: (bytes) => wholePhoto(bytes, 'imageUrl'),

    async profilePicture(bytes) {
      const photo = await wholePhoto(bytes, 'pictureUrl')
      const { width, height } = photo
      if (width > PROFILE_PICTURE_MAX_INPUT_SIDE || height > PROFILE_PICTURE_MAX_INPUT_SIDE) {
        const reason = `it is ${width}×${height}; a profile photo is made from at most ${PROFILE_PICTURE_MAX_INPUT_SIDE}×${PROFILE_PICTURE_MAX_INPUT_SIDE}`
        throw new GatewayError('media_unavailable', `pictureUrl cannot be used: ${reason}`, {
          field: 'pictureUrl',
          reason,
        })
      }
      // Already what WhatsApp keeps: sent byte for byte (and no ffmpeg needed, so the edge takes it too)
      const fits = width === height && width >= PROFILE_PICTURE_MIN_SIDE && width <= PROFILE_PICTURE_SIDE
      if (photo.mimetype === 'image/jpeg' && fits) return { bytes, side: width, converted: false }
      return { bytes: await (await convert()).toProfilePicture(bytes), side: PROFILE_PICTURE_SIDE, converted: true }
    },

    async linkThumbnail(bytes) {
      const { mimetype, width = 0, height = 0 } = await wholePhoto(bytes, 'og:image')
      if (width > PROFILE_PICTURE_MAX_INPUT_SIDE || height > PROFILE_PICTURE_MAX_INPUT_SIDE)
        throw new GatewayError('media_unavailable', `og:image is ${width}×${height}, too large to make a thumbnail of`)
      // Small enough already: as it is (and no ffmpeg needed, so the edge takes it too).
      if (mimetype === 'image/jpeg' && width <= LINK_THUMBNAIL_SIDE && height <= LINK_THUMBNAIL_SIDE) return bytes
      return (await convert()).toLinkThumbnail(bytes)
    },

    audio: async (bytes) => (await convert()).probeAudio(bytes),
    voiceNote: async (bytes) => (await convert()).toVoiceNote(bytes),

    async sticker(bytes) {
      const sticker = await (await convert()).toSticker(bytes)
      return { ...sticker, width: STICKER_SIZE, height: STICKER_SIZE }
    },

    video: async (bytes, options) => (await convert()).toVideo(bytes, options),

    async documentType(bytes) {
      const { sniffType } = await import('./sniff')
      return (await sniffType(bytes)) ?? { mimetype: 'application/octet-stream' }
    },
  }
}
