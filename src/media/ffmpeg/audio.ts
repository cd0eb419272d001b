import type { AudioInfo, VoiceNote } from '../converter'
import { sniffType } from '../sniff'
import { INPUT, conversionFailed, reportedSeconds, runFfmpeg } from './run'
import { EnvelopeMeter } from './waveform'

export interface FfmpegContext {
  binary: string
  timeoutMs: number
  /** MEDIA_MAX_SECONDS: the longest audio a conversion decodes. */
  maxSeconds: number
  /** MEDIA_MAX_BYTES: no conversion may write more than a client may upload. */
  maxOutputBytes: number
}

/**
 * What the audio endpoint takes (docs/api.md's list): mp3, and OGG with Vorbis or Opus. file-type
 * names them audio/mpeg, audio/ogg and audio/ogg; codecs=opus (audio/opus for a bare Opus stream).
 */
const ACCEPTED_AUDIO = new Set(['audio/mpeg', 'audio/ogg', 'audio/ogg; codecs=opus', 'audio/opus'])

/** Sample rates real speech and music use; outside them a header is lying or hostile (a 1 Hz WAV decodes to days). */
const MIN_SAMPLE_RATE = 8_000
const MAX_SAMPLE_RATE = 192_000

/**
 * Rate of the PCM decoded for duration and waveform: speech's band (up to 4 kHz) drives the
 * bars; 16 KB a second, reduced as it streams, never held.
 */
const ENVELOPE_RATE = 8_000

/**
 * Opus in OGG, mono 48 kHz, ~32 kbit/s VBR tuned for speech: what WhatsApp's own voice
 * notes are. Duration and waveform come from a second decode to low-rate PCM, run beside
 * the encode (two cores) and reduced as it streams, so the count of samples gives exact
 * seconds. Both runs stop at MEDIA_MAX_SECONDS, whatever the file claims.
 */
export async function toVoiceNote(ctx: FfmpegContext, bytes: Uint8Array): Promise<VoiceNote> {
  await requireAudio(bytes)
  await probeLimits(ctx, bytes)
  const limit = ['-t', String(ctx.maxSeconds + 1)] // one second more than allowed: "too long" is then visible
  const meter = new EnvelopeMeter(ENVELOPE_RATE)
  const [encoded] = await Promise.all([
    runFfmpeg({
      ...ctx,
      input: bytes,
      what: 'audio',
      maxOutputBytes: ctx.maxOutputBytes,
      args: [
        ...limit,
        '-i',
        INPUT,
        '-map',
        '0:a:0',
        '-ac',
        '1',
        '-ar',
        '48000',
        '-c:a',
        'libopus',
        '-b:a',
        '32k',
        '-vbr',
        'on',
        '-application',
        'voip',
        '-f',
        'ogg',
        'pipe:1',
      ],
    }),
    runFfmpeg({
      ...ctx,
      input: bytes,
      what: 'audio',
      // 16-bit mono at ENVELOPE_RATE for at most maxSeconds + 1, and a little slack.
      maxOutputBytes: (ctx.maxSeconds + 2) * ENVELOPE_RATE * 2,
      onOutput: (chunk) => meter.add(chunk),
      args: [...limit, '-i', INPUT, '-map', '0:a:0', '-ac', '1', '-ar', String(ENVELOPE_RATE), '-f', 's16le', 'pipe:1'],
    }),
  ])
  const seconds = meter.seconds()
  if (meter.samples === 0) throw conversionFailed('audio', 'it contains no sound')
  if (seconds > ctx.maxSeconds) throw tooLong(ctx)
  return {
    bytes: encoded.stdout,
    mimetype: 'audio/ogg; codecs=opus',
    seconds: roundSeconds(seconds),
    waveform: meter.bars(),
  }
}

/** The real type from the bytes and the duration from a full decode (mp3 headers may lie). */
export async function probeAudio(ctx: FfmpegContext, bytes: Uint8Array): Promise<AudioInfo> {
  const sniffed = await requireAudio(bytes)
  await probeLimits(ctx, bytes)
  const decoded = await runFfmpeg({
    ...ctx,
    input: bytes,
    what: 'audio',
    maxOutputBytes: 0, // decoded to nowhere
    args: ['-t', String(ctx.maxSeconds + 1), '-i', INPUT, '-map', '0:a:0', '-f', 'null', '-'],
  })
  const seconds = reportedSeconds(decoded.stderr)
  if (seconds === undefined) throw conversionFailed('audio', 'no duration could be read')
  if (seconds > ctx.maxSeconds) throw tooLong(ctx)
  return { seconds: roundSeconds(seconds), mimetype: sniffed.mimetype }
}

async function requireAudio(bytes: Uint8Array) {
  const sniffed = await sniffType(bytes)
  if (!sniffed || !ACCEPTED_AUDIO.has(sniffed.mimetype)) {
    const what = sniffed ? `it is ${sniffed.mimetype}` : 'it is not a known audio format'
    throw conversionFailed('audio', `${what}; send mp3, ogg/vorbis or opus`)
  }
  return sniffed
}

/**
 * What the file declares, read without decoding it: a sample rate no real audio has, or a
 * duration past MEDIA_MAX_SECONDS, is refused before any decoder runs.
 */
async function probeLimits(ctx: FfmpegContext, bytes: Uint8Array): Promise<void> {
  const { stderr } = await runFfmpeg({
    ...ctx,
    input: bytes,
    what: 'audio',
    maxOutputBytes: 0,
    args: ['-i', INPUT, '-map', '0:a:0', '-t', '0', '-f', 'null', '-'],
  })
  const declared = declaredAudio(stderr)
  if (!declared) throw conversionFailed('audio', 'no audio stream was found')
  if (declared.sampleRate < MIN_SAMPLE_RATE || declared.sampleRate > MAX_SAMPLE_RATE) {
    throw conversionFailed(
      'audio',
      `its sample rate (${declared.sampleRate} Hz) is outside ${MIN_SAMPLE_RATE}–${MAX_SAMPLE_RATE} Hz`,
    )
  }
  if (declared.seconds !== undefined && declared.seconds > ctx.maxSeconds) throw tooLong(ctx)
}

/** The input's first audio stream as ffmpeg describes it: `Duration: 00:50:00.00` and `Audio: vorbis, 8000 Hz`. */
export function declaredAudio(stderr: string): { sampleRate: number; seconds?: number } | undefined {
  const input = stderr.slice(0, Math.max(0, stderr.indexOf('Stream mapping:')) || undefined)
  const stream = /Stream #0:\d+[^:\n]*: Audio: [^\n]*?(\d+) Hz/.exec(input)
  if (!stream) return undefined
  const duration = /Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(input)
  const seconds = duration ? Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]) : undefined
  return { sampleRate: Number(stream[1]), ...(seconds !== undefined ? { seconds } : {}) }
}

const tooLong = (ctx: FfmpegContext) =>
  conversionFailed('audio', `it is longer than ${ctx.maxSeconds} s (MEDIA_MAX_SECONDS)`)

function roundSeconds(seconds: number): number {
  return Math.round(seconds * 100) / 100
}
