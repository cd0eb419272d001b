import type { PreparedVideo } from '../port'
import { sniffType } from '../sniff'
import type { FfmpegContext } from './audio'
import { INPUT, OUTPUT, conversionFailed, reportedSeconds, runFfmpeg } from './run'
import { declaredVideo, type DeclaredVideo } from './video-probe'

/** Containers ffmpeg is asked to open; anything else is refused before it runs (file-type's names). */
const VIDEO_INPUTS = new Set([
  'video/mp4',
  'video/x-m4v',
  'video/quicktime',
  'video/webm',
  'video/matroska',
  'video/vnd.avi',
  'video/mpeg',
  'video/mp2t',
  'video/3gpp',
  'video/3gpp2',
  'video/ogg',
  'video/x-flv',
  'video/x-ms-asf',
  'image/gif',
])

/**
 * The largest picture a video may have: 4K either way. Read from the stream's header before any
 * frame is decoded, and repeated inside every decoder run (`-max_pixels`), so a header that lies
 * small cannot make a decoder allocate for a bigger frame.
 */
export const MAX_VIDEO_SIDE = 4_096
export const MAX_VIDEO_PIXELS = 4_096 * 2_304
const MAX_PIXELS = ['-max_pixels', String(MAX_VIDEO_PIXELS)]
/** What a converted video is scaled to fit (long side): what WhatsApp itself sends. */
const CONVERTED_SIDE = 1_280
/** The thumbnail's long side: WhatsApp shows it blurred while the video downloads. */
const THUMBNAIL_SIDE = 96
const THUMBNAIL_MAX_BYTES = 64 * 1024

const scaleWithin = (side: number) =>
  `scale='trunc(min(1,${side}/max(iw,ih))*iw/2)*2':'trunc(min(1,${side}/max(iw,ih))*ih/2)*2'`

/**
 * An MP4 WhatsApp plays: H.264 (4:2:0) with AAC or no sound is sent byte for byte; anything else
 * ffmpeg can decode is converted to that (a GIF always, without sound). Order: sniff the
 * container, read what its header declares (refusing sizes and durations past the bounds
 * before any frame is decoded), count its real length by copying packets without decoding
 * them, then convert if needed and cut the thumbnail from the first frame.
 */
export async function toVideo(
  ctx: FfmpegContext,
  bytes: Uint8Array,
  options: { gifPlayback: boolean },
): Promise<PreparedVideo> {
  const sniffed = await sniffType(bytes)
  if (!sniffed || !VIDEO_INPUTS.has(sniffed.mimetype)) {
    const what = sniffed ? `the bytes are ${sniffed.mimetype}` : 'the bytes are of no known video format'
    throw conversionFailed('video', `${what}; send an MP4, or a video file ffmpeg can convert`)
  }
  const declared = await probe(ctx, bytes, sniffed.mimetype)
  const seconds = await packetSeconds(ctx, bytes, declared)
  const asItIs =
    sniffed.mimetype === 'video/mp4' &&
    declared.codec === 'h264' &&
    declared.pixelFormat === 'yuv420p' &&
    (declared.audioCodec === undefined || declared.audioCodec === 'aac')
  const mp4 = asItIs ? bytes : await convert(ctx, bytes, declared, options)
  const shape = asItIs ? declared : await probe(ctx, mp4, 'video/mp4')
  const thumbnail = await firstFrame(ctx, mp4)
  return {
    bytes: mp4,
    mimetype: 'video/mp4',
    seconds: Math.max(1, Math.round(seconds)),
    width: shape.width,
    height: shape.height,
    thumbnail,
    converted: !asItIs,
  }
}

/** What the header says, read without decoding a frame; sizes and durations past the bounds are refused here. */
async function probe(ctx: FfmpegContext, bytes: Uint8Array, mimetype: string): Promise<DeclaredVideo> {
  const { stderr } = await runFfmpeg({
    ...ctx,
    input: bytes,
    what: 'video',
    maxOutputBytes: 0,
    args: [...MAX_PIXELS, '-i', INPUT, '-map', '0:v:0', '-t', '0', '-f', 'null', '-'],
  })
  const declared = declaredVideo(stderr)
  if (!declared) throw conversionFailed('video', `no video stream was found in it (${mimetype})`)
  const { width, height } = declared
  if (width > MAX_VIDEO_SIDE || height > MAX_VIDEO_SIDE || width * height > MAX_VIDEO_PIXELS) {
    throw conversionFailed(
      'video',
      `it is ${width}×${height}; a video may be at most ${MAX_VIDEO_SIDE} pixels a side and ${MAX_VIDEO_PIXELS} pixels in all (4K)`,
    )
  }
  if (declared.seconds !== undefined && declared.seconds > ctx.maxSeconds) throw tooLong(ctx)
  return declared
}

/**
 * The length its packets really cover (a header may omit or understate it), found by copying
 * them to nowhere: nothing is decoded, so reading every packet of a file of at most
 * MEDIA_MAX_BYTES is cheap. No `-t` here: with sparse frames (one every few seconds) a copy cut
 * at the limit would end on a packet just under it.
 */
async function packetSeconds(ctx: FfmpegContext, bytes: Uint8Array, declared: DeclaredVideo): Promise<number> {
  const { stderr } = await runFfmpeg({
    ...ctx,
    input: bytes,
    what: 'video',
    maxOutputBytes: 0,
    args: ['-i', INPUT, '-map', '0:v:0', '-c', 'copy', '-f', 'null', '-'],
  })
  const counted = reportedSeconds(stderr) ?? 0
  if (counted > ctx.maxSeconds) throw tooLong(ctx)
  return Math.max(counted, declared.seconds ?? 0)
}

/** H.264 4:2:0 + AAC in an MP4 with its index first; a GIF (or a GIF-like send) without sound. */
async function convert(
  ctx: FfmpegContext,
  bytes: Uint8Array,
  declared: DeclaredVideo,
  options: { gifPlayback: boolean },
): Promise<Uint8Array> {
  const silent = options.gifPlayback || declared.audioCodec === undefined
  const { stdout } = await runFfmpeg({
    ...ctx,
    input: bytes,
    what: 'video',
    maxOutputBytes: ctx.maxOutputBytes,
    args: [
      ...MAX_PIXELS,
      '-t',
      String(ctx.maxSeconds + 1),
      '-i',
      INPUT,
      '-map',
      '0:v:0',
      ...(silent ? ['-an'] : ['-map', '0:a:0', '-c:a', 'aac', '-b:a', '128k', '-ac', '2']),
      '-vf',
      `${scaleWithin(CONVERTED_SIDE)},format=yuv420p`,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '26',
      '-movflags',
      '+faststart',
      // ffmpeg stops writing past this, so the disk never holds more than the cap (+1 to see it).
      '-fs',
      String(ctx.maxOutputBytes + 1),
      '-f',
      'mp4',
      OUTPUT,
    ],
  })
  return stdout
}

/** A small JPEG of the first frame: one frame decoded, at most 4K by the same pixel bound. */
async function firstFrame(ctx: FfmpegContext, mp4: Uint8Array): Promise<Uint8Array> {
  const { stdout } = await runFfmpeg({
    ...ctx,
    input: mp4,
    what: 'video',
    maxOutputBytes: THUMBNAIL_MAX_BYTES,
    args: [
      ...MAX_PIXELS,
      '-i',
      INPUT,
      '-map',
      '0:v:0',
      '-frames:v',
      '1',
      '-vf',
      scaleWithin(THUMBNAIL_SIDE),
      '-c:v',
      'mjpeg',
      '-q:v',
      '6',
      '-f',
      'image2pipe',
      'pipe:1',
    ],
  })
  if (stdout.byteLength === 0) throw conversionFailed('video', 'no picture could be decoded from it')
  return stdout
}

const tooLong = (ctx: FfmpegContext) =>
  conversionFailed('video', `it is longer than ${ctx.maxSeconds} s (MEDIA_MAX_SECONDS)`)
