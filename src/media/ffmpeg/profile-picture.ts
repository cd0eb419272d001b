import { PROFILE_PICTURE_SIDE } from '../converter'
import type { FfmpegContext } from './audio'
import { toStillJpeg } from './still-jpeg'

/** The middle square of a picture, scaled to PROFILE_PICTURE_SIDE: what WhatsApp keeps as a profile photo. */
export function toProfilePicture(ctx: FfmpegContext, bytes: Uint8Array): Promise<Uint8Array> {
  const side = PROFILE_PICTURE_SIDE
  return toStillJpeg(ctx, bytes, {
    filter: `crop='min(iw,ih)':'min(iw,ih)',scale=${side}:${side},format=yuvj420p`,
    quality: 4,
    maxOutputBytes: 1024 * 1024,
    fits: (width, height) => width === side && height === side,
  })
}
