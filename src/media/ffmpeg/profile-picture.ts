import { PROFILE_PICTURE_MAX_INPUT_SIDE, PROFILE_PICTURE_SIDE } from '../converter'
import { checkImage } from '../image-check'
import type { FfmpegContext } from './audio'
import { INPUT, conversionFailed, runFfmpeg } from './run'

/** Far above any 640×640 JPEG at this quality: a run writing more is stopped there. */
const OUTPUT_CAP = 1024 * 1024

/**
 * The middle square of a picture, scaled to PROFILE_PICTURE_SIDE, as a JPEG: what WhatsApp keeps
 * as a profile photo. The caller has checked the file is a whole image of bounded size; ffmpeg's
 * -max_pixels repeats the bound inside the decoder, and the result is checked as a whole JPEG.
 */
export async function toProfilePicture(ctx: FfmpegContext, bytes: Uint8Array): Promise<Uint8Array> {
  const side = PROFILE_PICTURE_SIDE
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
      `crop='min(iw,ih)':'min(iw,ih)',scale=${side}:${side},format=yuvj420p`,
      '-c:v',
      'mjpeg',
      '-q:v',
      '4',
      '-f',
      'image2',
      'pipe:1',
    ],
  })
  const made = checkImage(stdout, 'image/jpeg')
  if (!made.ok || made.width !== side || made.height !== side)
    throw conversionFailed('image', made.ok ? `it came out ${made.width}×${made.height}` : made.reason)
  return stdout
}
