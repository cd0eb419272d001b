import { LINK_THUMBNAIL_SIDE, PROFILE_PICTURE_MAX_INPUT_SIDE } from '../converter'
import { checkImage } from '../image-check'
import type { FfmpegContext } from './audio'
import { INPUT, conversionFailed, runFfmpeg } from './run'

/** Far above any 192 px JPEG at this quality: a run writing more is stopped there. */
const OUTPUT_CAP = 256 * 1024

/**
 * A link preview's picture as WhatsApp carries it inline: a JPEG at most LINK_THUMBNAIL_SIDE a
 * side, proportions kept, never enlarged. The caller has checked the file is a whole image of bounded size;
 * -max_pixels repeats the bound inside the decoder, and the result is checked as a whole JPEG.
 */
export async function toLinkThumbnail(ctx: FfmpegContext, bytes: Uint8Array): Promise<Uint8Array> {
  const side = LINK_THUMBNAIL_SIDE
  const { stdout } = await runFfmpeg({
    ...ctx,
    input: bytes,
    what: 'image',
    maxOutputBytes: OUTPUT_CAP,
    args: [
      '-max_pixels',
      String(PROFILE_PICTURE_MAX_INPUT_SIDE * PROFILE_PICTURE_MAX_INPUT_SIDE),
      '-i',
      INPUT,
      '-frames:v',
      '1',
      '-vf',
      // Fits within side×side, never enlarged; force_divisible_by is newer than some ffmpeg builds in use.
      `scale='min(${side},iw)':'min(${side},ih)':force_original_aspect_ratio=decrease,format=yuvj420p`,
      '-c:v',
      'mjpeg',
      '-q:v',
      '5',
      '-f',
      'image2',
      'pipe:1',
    ],
  })
  const made = checkImage(stdout, 'image/jpeg')
  if (!made.ok || made.width > side || made.height > side)
    throw conversionFailed('image', made.ok ? `it came out ${made.width}×${made.height}` : made.reason)
  return stdout
}
