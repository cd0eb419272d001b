import { ANIMATED_STICKER_MAX_BYTES, STATIC_STICKER_MAX_BYTES, STICKER_SIZE, type Sticker } from '../converter'
import { checkImage } from '../image-check'
import { imageDimensions, sniffType } from '../sniff'
import { readWebpInfo } from '../webp-header'
import type { FfmpegContext } from './audio'
import { INPUT, conversionFailed, runFfmpeg } from './run'

const STICKER_INPUTS = new Set(['image/webp', 'image/gif', 'image/png', 'image/jpeg'])

/**
 * The largest picture a sticker is made from: 8× the sticker's side is plenty, and a header
 * declaring more (a 35-byte GIF can claim 60000×60000) is refused before any decoder allocates
 * for it. ffmpeg's own -max_pixels repeats the bound inside the decoder, per frame.
 */
const MAX_INPUT_SIDE = 4_096
const MAX_PIXELS = ['-max_pixels', String(MAX_INPUT_SIDE * MAX_INPUT_SIDE)]
/** An animated sticker is made from at most this much of the GIF: WhatsApp plays a few seconds. */
const MAX_ANIMATION_SECONDS = 30

/** Scale to fit 512×512, keep transparency, pad the rest with transparent pixels. */
const FIT =
  `scale=${STICKER_SIZE}:${STICKER_SIZE}:force_original_aspect_ratio=decrease,format=rgba,` +
  `pad=${STICKER_SIZE}:${STICKER_SIZE}:(ow-iw)/2:(oh-ih)/2:color=0x00000000`

/** An encode past this is far from any quality step's target: stop it there. */
const OUTPUT_CAP = 4 * ANIMATED_STICKER_MAX_BYTES

/** Tried in order until the sticker is under WhatsApp's size limit. */
const STATIC_QUALITIES = [80, 60, 40, 20]
const ANIMATED_STEPS = [
  { quality: 60, fps: 15 },
  { quality: 40, fps: 12 },
  { quality: 25, fps: 10 },
  { quality: 10, fps: 8 },
]

export async function toSticker(ctx: FfmpegContext, bytes: Uint8Array): Promise<Sticker> {
  const sniffed = await sniffType(bytes)
  if (!sniffed || !STICKER_INPUTS.has(sniffed.mimetype)) {
    throw conversionFailed(
      'image',
      `a sticker must be WebP, GIF, PNG or JPEG, not ${sniffed?.mimetype ?? 'unknown data'}`,
    )
  }
  if (sniffed.mimetype === 'image/webp' && readWebpInfo(bytes)?.animated) return animatedWebpAsIs(bytes)
  if (sniffed.mimetype !== 'image/gif') {
    const whole = checkImage(bytes, sniffed.mimetype)
    if (!whole.ok) throw conversionFailed('image', whole.reason)
  }
  const size = imageDimensions(bytes)
  if (!size) throw conversionFailed('image', 'its size could not be read')
  if (size.width > MAX_INPUT_SIDE || size.height > MAX_INPUT_SIDE) {
    throw conversionFailed(
      'image',
      `it is ${size.width}×${size.height}; a sticker is made from at most ${MAX_INPUT_SIDE}×${MAX_INPUT_SIDE}`,
    )
  }
  const frames = await frameCount(ctx, bytes)
  // ffmpeg exits 0 on a GIF whose frames are all broken: zero decoded frames is undecodable.
  if (frames === 0) throw conversionFailed('image', 'no picture could be decoded from it')
  const animated = sniffed.mimetype === 'image/gif' && frames > 1
  return animated ? encodeAnimated(ctx, bytes) : encodeStatic(ctx, bytes)
}

async function encodeStatic(ctx: FfmpegContext, bytes: Uint8Array): Promise<Sticker> {
  for (const quality of STATIC_QUALITIES) {
    const { stdout } = await runFfmpeg({
      ...ctx,
      input: bytes,
      what: 'image',
      maxOutputBytes: OUTPUT_CAP,
      args: [
        ...MAX_PIXELS,
        '-i',
        INPUT,
        '-frames:v',
        '1',
        '-vf',
        FIT,
        '-c:v',
        'libwebp',
        '-quality',
        String(quality),
        '-f',
        'webp',
        'pipe:1',
      ],
    })
    if (stdout.byteLength <= STATIC_STICKER_MAX_BYTES) return { bytes: stdout, mimetype: 'image/webp', animated: false }
  }
  throw conversionFailed('image', `the sticker stays above ${STATIC_STICKER_MAX_BYTES} bytes`)
}

async function encodeAnimated(ctx: FfmpegContext, bytes: Uint8Array): Promise<Sticker> {
  for (const { quality, fps } of ANIMATED_STEPS) {
    const { stdout } = await runFfmpeg({
      ...ctx,
      input: bytes,
      what: 'image',
      maxOutputBytes: OUTPUT_CAP,
      args: [
        ...MAX_PIXELS,
        '-t',
        String(MAX_ANIMATION_SECONDS),
        '-i',
        INPUT,
        '-vf',
        `fps=${fps},${FIT}`,
        '-c:v',
        'libwebp_anim',
        '-loop',
        '0',
        '-quality',
        String(quality),
        '-compression_level',
        '4',
        '-an',
        '-f',
        'webp',
        'pipe:1',
      ],
    })
    if (stdout.byteLength <= ANIMATED_STICKER_MAX_BYTES)
      return { bytes: stdout, mimetype: 'image/webp', animated: true }
  }
  throw conversionFailed('image', `the animated sticker stays above ${ANIMATED_STICKER_MAX_BYTES} bytes`)
}

/**
 * This ffmpeg (4.x) cannot decode animated WebP, so an animated WebP is sent as it is
 * when it already is a sticker (512×512, under the limit), and refused otherwise.
 */
function animatedWebpAsIs(bytes: Uint8Array): Sticker {
  const info = readWebpInfo(bytes)
  if (info?.width !== STICKER_SIZE || info.height !== STICKER_SIZE || bytes.byteLength > ANIMATED_STICKER_MAX_BYTES) {
    throw conversionFailed(
      'image',
      `an animated WebP must already be ${STICKER_SIZE}×${STICKER_SIZE} and at most ${ANIMATED_STICKER_MAX_BYTES} bytes`,
    )
  }
  return { bytes, mimetype: 'image/webp', animated: true }
}

/** Frames in the input, from ffmpeg's progress line after a decode to nowhere. */
async function frameCount(ctx: FfmpegContext, bytes: Uint8Array): Promise<number> {
  const { stderr } = await runFfmpeg({
    ...ctx,
    input: bytes,
    what: 'image',
    maxOutputBytes: 0,
    args: [...MAX_PIXELS, '-t', String(MAX_ANIMATION_SECONDS), '-i', INPUT, '-map', '0:v:0', '-f', 'null', '-'],
  })
  const matches = [...stderr.matchAll(/frame=\s*(\d+)/g)]
  return Number(matches.at(-1)?.[1] ?? 0)
}
