import { LINK_THUMBNAIL_SIDE } from '../converter'
import type { FfmpegContext } from './audio'
import { toStillJpeg } from './still-jpeg'

/**
 * A link preview's picture as WhatsApp carries it inline: a JPEG at most LINK_THUMBNAIL_SIDE a
 * side, proportions kept, never enlarged.
 */
export function toLinkThumbnail(ctx: FfmpegContext, bytes: Uint8Array): Promise<Uint8Array> {
  const side = LINK_THUMBNAIL_SIDE
  return toStillJpeg(ctx, bytes, {
    // Fits within side×side, never enlarged; force_divisible_by is newer than some ffmpeg builds in use.
    filter: `scale='min(${side},iw)':'min(${side},ih)':force_original_aspect_ratio=decrease,format=yuvj420p`,
    quality: 5,
    maxOutputBytes: 256 * 1024,
    fits: (width, height) => width <= side && height <= side,
  })
}
