import { createFfmpegConverter } from '../../src/media/ffmpeg'
import { fixtures } from '../support/media-fixtures'

/** Times one voice note (10 s mp3) and one animated sticker (2 s GIF), fixtures made outside the timing. */
export async function benchMedia(): Promise<{ voiceNoteMs: number; stickerMs: number }> {
  const converter = createFfmpegConverter()
  const [mp3, gif] = await Promise.all([fixtures.mp3(10), fixtures.animatedGif()])
  let started = performance.now()
  await converter.toVoiceNote(mp3)
  const voiceNoteMs = performance.now() - started
  started = performance.now()
  await converter.toSticker(gif)
  const stickerMs = performance.now() - started
  return { voiceNoteMs: Math.round(voiceNoteMs), stickerMs: Math.round(stickerMs) }
}
