import { PROFILE_PICTURE_MAX_INPUT_SIDE } from '../converter'
import { checkImage } from '../image-check'
import type { FfmpegContext } from './audio'
import { INPUT, conversionFailed, runFfmpeg } from './run'

/**
 * The first frame of an image as a JPEG, through a filter that sizes it: what the profile photo
 * and the link preview picture are made with. The caller has checked the file is a whole image
 * of bounded size; -max_pixels repeats the bound inside the decoder, and the result is checked
 * as a whole JPEG of the size `fits` accepts.
 */
export async function toStillJpeg(
  ctx: FfmpegContext,
  bytes: Uint8Array,
  options: {
    filter: string
    /** ffmpeg's mjpeg -q:v (2 best … 31 worst). */
    quality: number
    /** Far above any result at this size and quality: a run writing more is stopped there. */
    maxOutputBytes: number
    fits(width: number, height: number): boolean
  },
): Promise<Uint8Array> {
  const { stdout } = await runFfmpeg({
    ...ctx,
    input: bytes,
    what: 'image',
    maxOutputBytes: options.maxOutputBytes,
    args: [
      '-max_pixels',
      String(PROFILE_PICTURE_MAX_INPUT_SIDE * PROFILE_PICTURE_MAX_INPUT_SIDE),
      '-i',
      INPUT,
      '-frames:v',
      '1',
      '-vf',
      options.filter,
      '-c:v',
      'mjpeg',
      '-q:v',
      String(options.quality),
      '-f',
      'image2',
      'pipe:1',
    ],
  })
  const made = checkImage(stdout, 'image/jpeg')
  if (!made.ok || !options.fits(made.width, made.height))
    throw conversionFailed('image', made.ok ? `it came out ${made.width}×${made.height}` : made.reason)
  return stdout
}
