import type { MediaConverter } from '../converter'
import { probeAudio, toVoiceNote } from './audio'
import { locateFfmpeg } from './locate'
import { toSticker } from './sticker'

export interface FfmpegConverterOptions {
  /** FFMPEG_PATH; default: the @ffmpeg-installer build, else `ffmpeg` on PATH. */
  ffmpegPath?: string
  /** Per ffmpeg run; a run past it is killed and the media refused (media_unavailable). */
  timeoutMs?: number
}

/** The MediaConverter on ffmpeg: one short-lived process per step, bytes through pipes. */
export function createFfmpegConverter(options: FfmpegConverterOptions = {}): MediaConverter {
  const ctx = { binary: locateFfmpeg(options.ffmpegPath), timeoutMs: options.timeoutMs ?? 30_000 }
  return {
    toVoiceNote: (bytes) => toVoiceNote(ctx, bytes),
    toSticker: (bytes) => toSticker(ctx, bytes),
    probeAudio: (bytes) => probeAudio(ctx, bytes),
  }
}

export { locateFfmpeg }
