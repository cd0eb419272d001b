import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { locateFfmpeg } from '../../src/media/ffmpeg/locate'

const run = promisify(execFile)

/** ffmpeg's own description of a file (the header dump on stderr), to check what a contact got. */
export async function describeMedia(bytes: Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wa-describe-'))
  try {
    const input = join(dir, 'in')
    await writeFile(input, bytes)
    const result = await run(locateFfmpeg(process.env.FFMPEG_PATH), ['-hide_banner', '-i', input]).catch(
      (error: { stderr?: string }) => ({ stderr: error.stderr ?? '' }),
    )
    return result.stderr
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
