import type { MediaConverter } from '../converter'
import { probeAudio, toVoiceNote, type FfmpegContext } from './audio'
import { locateFfmpeg } from './locate'
import { toLinkThumbnail } from './link-thumbnail'
import { toProfilePicture } from './profile-picture'
import { toSticker } from './sticker'
import { toVideo } from './video'

export interface FfmpegConverterOptions {
  /** FFMPEG_PATH; default: the @ffmpeg-installer build, else `ffmpeg` on PATH. */
  ffmpegPath?: string
  /** Per ffmpeg run; a run past it is killed and the media refused (media_unavailable). */
  timeoutMs?: number
  /** MEDIA_MAX_SECONDS: longer audio is refused, and no decode goes past it. */
  maxSeconds?: number
  /** MEDIA_MAX_BYTES: the most any conversion may write. */
  maxOutputBytes?: number
}

/** The MediaConverter on ffmpeg: one short-lived process per step, bytes through pipes, every step bounded. */
export function createFfmpegConverter(options: FfmpegConverterOptions = {}): MediaConverter {
  const ctx: FfmpegContext = {
    binary: locateFfmpeg(options.ffmpegPath),
    timeoutMs: options.timeoutMs ?? 30_000,
    maxSeconds: options.maxSeconds ?? 15 * 60,
    maxOutputBytes: options.maxOutputBytes ?? 16 * 1024 * 1024,
  }
  return {
    toVoiceNote: (bytes) => toVoiceNote(ctx, bytes),
    toSticker: (bytes) => toSticker(ctx, bytes),
    probeAudio: (bytes) => probeAudio(ctx, bytes),
    toVideo: (bytes, options) => toVideo(ctx, bytes, options),
    toProfilePicture: (bytes) => toProfilePicture(ctx, bytes),
    toLinkThumbnail: (bytes) => toLinkThumbnail(ctx, bytes),
  }
}

export { locateFfmpeg }
