import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { GatewayError } from '../../errors'

/** Stands in the args for the input file's path. */
export const INPUT = '{input}'
/**
 * Stands in the args for an output file, for muxers that must seek back (MP4 writes its index
 * last, and `+faststart` moves it to the front): its bytes are then the run's `stdout`.
 */
export const OUTPUT = '{output}'

export interface FfmpegRun {
  /** Empty when the output went to `onOutput` instead. */
  stdout: Uint8Array
  stderr: string
}

export interface RunOptions {
  binary: string
  /** ffmpeg arguments; INPUT marks where the input file goes. */
  args: readonly string[]
  input: Uint8Array
  timeoutMs: number
  /** What the input is, for the error message ("audio", "image"). */
  what: string
  /**
   * The most output this run may write: past it ffmpeg is killed and the media refused. Every
   * run has one, so no input (a tiny file that decodes to hours) can fill the gateway's memory.
   */
  maxOutputBytes: number
  /** Takes the output as it comes instead of collecting it (a streamed reduction, e.g. a waveform). */
  onOutput?: (chunk: Buffer) => void
}

/**
 * Runs ffmpeg once, never through a shell, output on stdout. The input goes through a temp
 * file (removed afterwards), not stdin: over a pipe ffmpeg 4's GIF demuxer drops frames and
 * mp3 has no seekable length. A non-zero exit means the input could not be decoded or
 * converted: that is the client's media, so media_unavailable with ffmpeg's last line.
 */
export async function runFfmpeg(options: RunOptions): Promise<FfmpegRun> {
  const dir = await mkdtemp(join(tmpdir(), 'wa-media-'))
  try {
    const inputPath = join(dir, 'input')
    const outputPath = join(dir, 'output')
    await writeFile(inputPath, options.input)
    const args = options.args.map((arg) => (arg === INPUT ? inputPath : arg === OUTPUT ? outputPath : arg))
    const run = await spawnFfmpeg(options, args)
    if (!options.args.includes(OUTPUT)) return run
    // The file is written by ffmpeg, not streamed to us: its size is checked before it is read.
    const { size } = await stat(outputPath)
    if (size > options.maxOutputBytes)
      throw conversionFailed(options.what, `it converts to more than ${options.maxOutputBytes} bytes`)
    return { ...run, stdout: new Uint8Array(await readFile(outputPath)) }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

function spawnFfmpeg(
  { binary, timeoutMs, what, maxOutputBytes, onOutput }: RunOptions,
  args: string[],
): Promise<FfmpegRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['-hide_banner', '-nostdin', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    const stdout: Buffer[] = []
    let written = 0
    let stderr = ''
    let stopped: string | undefined
    const stop = (reason: string) => {
      stopped ??= reason
      child.kill('SIGKILL')
    }
    const timer = setTimeout(() => stop(`conversion took longer than ${timeoutMs} ms`), timeoutMs)
    child.stdout.on('data', (chunk: Buffer) => {
      if (stopped) return
      written += chunk.length
      if (written > maxOutputBytes) return stop(`it converts to more than ${maxOutputBytes} bytes`)
      if (onOutput) onOutput(chunk)
      else stdout.push(chunk)
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-8_000) // the tail is what explains a failure
    })
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(new Error(`ffmpeg could not be started (${binary}): ${error.message}`))
    })
    child.once('close', (code) => {
      clearTimeout(timer)
      if (stopped) return reject(conversionFailed(what, stopped))
      if (code !== 0) return reject(conversionFailed(what, explain(stderr)))
      resolve({ stdout: new Uint8Array(Buffer.concat(stdout)), stderr })
    })
  })
}

export function conversionFailed(what: string, reason: string): GatewayError {
  return new GatewayError('media_unavailable', `The ${what} could not be converted: ${reason}`, {
    reason: reason.slice(0, 200),
  })
}

/**
 * Why a run failed: a frame refused by the pixel bound (`-max_pixels`) says so, rather than
 * ffmpeg's closing "Conversion failed!"; otherwise ffmpeg's last line.
 */
function explain(stderr: string): string {
  const size = /Picture size (\d+)x(\d+) is invalid/.exec(stderr)
  if (size) return `a frame is ${size[1]}×${size[2]} pixels, more than a picture may have here`
  return lastLine(stderr)
}

function lastLine(stderr: string): string {
  const lines = stderr
    .trim()
    .split('\n')
    .filter((line) => line.trim() !== '')
  return lines.at(-1)?.trim() || 'ffmpeg failed'
}

/** The duration ffmpeg reports in its final progress line (`time=00:00:03.01`), in seconds. */
export function reportedSeconds(stderr: string): number | undefined {
  const matches = [...stderr.matchAll(/time=\s*(\d+):(\d{2}):(\d{2}(?:\.\d+)?)/g)]
  const last = matches.at(-1)
  if (!last) return undefined
  return Number(last[1]) * 3600 + Number(last[2]) * 60 + Number(last[3])
}
