import type { AudioInfo, VoiceNote } from '../converter'
import { isAudio, sniffType } from '../sniff'
import { INPUT, conversionFailed, reportedSeconds, runFfmpeg } from './run'
import { waveformOf } from './waveform'

export interface FfmpegContext {
  binary: string
  timeoutMs: number
}

/** Rate of the PCM decoded for duration and waveform: plenty for 64 bars, 16 KB a second. */
const ENVELOPE_RATE = 8_000

/**
 * Opus in OGG, mono 48 kHz, ~32 kbit/s VBR tuned for speech: what WhatsApp's own voice
 * notes are. Duration and waveform come from a second decode to low-rate PCM, run beside
 * the encode (two cores), so the count of samples gives exact seconds.
 */
export async function toVoiceNote(ctx: FfmpegContext, bytes: Uint8Array): Promise<VoiceNote> {
  await requireAudio(bytes)
  const run = (args: string[]) => runFfmpeg({ ...ctx, args, input: bytes, what: 'audio' })
  const [encoded, envelope] = await Promise.all([
    run(['-i', INPUT, '-map', '0:a:0', '-ac', '1', '-ar', '48000', '-c:a', 'libopus', '-b:a', '32k',
      '-vbr', 'on', '-application', 'voip', '-f', 'ogg', 'pipe:1']),
    run(['-i', INPUT, '-map', '0:a:0', '-ac', '1', '-ar', String(ENVELOPE_RATE), '-f', 's16le', 'pipe:1']),
  ])
  const samples = envelope.stdout.byteLength / 2
  if (samples === 0) throw conversionFailed('audio', 'it contains no sound')
  return {
    bytes: encoded.stdout,
    mimetype: 'audio/ogg; codecs=opus',
    seconds: roundSeconds(samples / ENVELOPE_RATE),
    waveform: waveformOf(envelope.stdout),
  }
}

/** The real type from the bytes and the duration from a full decode (mp3 headers may lie). */
export async function probeAudio(ctx: FfmpegContext, bytes: Uint8Array): Promise<AudioInfo> {
  const sniffed = await requireAudio(bytes)
  const decoded = await runFfmpeg({ ...ctx, args: ['-i', INPUT, '-map', '0:a:0', '-f', 'null', '-'], input: bytes, what: 'audio' })
  const seconds = reportedSeconds(decoded.stderr)
  if (seconds === undefined) throw conversionFailed('audio', 'no duration could be read')
  return { seconds: roundSeconds(seconds), mimetype: sniffed.mimetype }
}

async function requireAudio(bytes: Uint8Array) {
  const sniffed = await sniffType(bytes)
  if (!sniffed || !isAudio(sniffed)) {
    throw conversionFailed('audio', sniffed ? `it is ${sniffed.mimetype}, not audio` : 'it is not a known audio format')
  }
  return sniffed
}

function roundSeconds(seconds: number): number {
  return Math.round(seconds * 100) / 100
}
