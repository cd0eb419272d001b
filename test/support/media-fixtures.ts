import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { locateFfmpeg } from '../../src/media/ffmpeg/locate'

const run = promisify(execFile)
const ffmpeg = locateFfmpeg(process.env.FFMPEG_PATH)

/** Media made on the spot by ffmpeg from its own test sources: nothing is downloaded. */
export async function generate(args: string[], ext: string): Promise<Uint8Array> {
  const dir = await mkdtemp(join(tmpdir(), 'wa-fixture-'))
  try {
    const out = join(dir, `out.${ext}`)
    await run(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-nostdin', ...args, out])
    return new Uint8Array(await readFile(out))
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** A sine whose loudness rises from silence to full over `seconds`: its waveform must rise too. */
export const risingTone = (seconds: number) => [
  '-f',
  'lavfi',
  '-i',
  `aevalsrc=sin(440*2*PI*t)*t/${seconds}:d=${seconds}:s=44100`,
]
export const testPicture = (size: string, seconds: number) => [
  '-f',
  'lavfi',
  '-i',
  `testsrc=size=${size}:rate=10:duration=${seconds}`,
]

export const fixtures = {
  mp3: (seconds = 3) => generate([...risingTone(seconds), '-c:a', 'libmp3lame', '-b:a', '64k'], 'mp3'),
  oggVorbis: (seconds = 3) => generate([...risingTone(seconds), '-c:a', 'libvorbis'], 'ogg'),
  oggOpus: (seconds = 3) => generate([...risingTone(seconds), '-c:a', 'libopus', '-ac', '2'], 'ogg'),
  animatedGif: () => generate([...testPicture('320x240', 2), '-f', 'gif'], 'gif'),
  png: () => generate([...testPicture('320x240', 1), '-frames:v', '1'], 'png'),
  staticWebp: () => generate([...testPicture('200x300', 1), '-frames:v', '1', '-c:v', 'libwebp'], 'webp'),
  /** H.264 (4:2:0) + AAC in MP4: what WhatsApp plays, sent as it is. */
  mp4: (seconds = 3, size = '320x240') =>
    generate(
      [
        ...testPicture(size, seconds),
        ...risingTone(seconds),
        '-c:v',
        'libx264',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-shortest',
      ],
      'mp4',
    ),
  /** VP8 + Vorbis in WebM: converted before sending. */
  webm: (seconds = 3) =>
    generate(
      [...testPicture('320x240', seconds), ...risingTone(seconds), '-c:v', 'libvpx', '-c:a', 'libvorbis'],
      'webm',
    ),
  animatedWebp: (size: string) => generate([...testPicture(size, 1), '-c:v', 'libwebp_anim', '-loop', '0'], 'webp'),
}

/** The first pixel of an image as RGBA, decoded by ffmpeg (to see transparent padding). */
export async function cornerPixel(image: Uint8Array): Promise<Uint8Array> {
  const dir = await mkdtemp(join(tmpdir(), 'wa-probe-'))
  try {
    const input = join(dir, 'in')
    await writeFile(input, image)
    const { stdout } = await run(
      ffmpeg,
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-i',
        input,
        '-frames:v',
        '1',
        '-vf',
        'format=rgba,crop=1:1:0:0',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgba',
        'pipe:1',
      ],
      { encoding: 'buffer' },
    )
    return new Uint8Array(stdout)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
