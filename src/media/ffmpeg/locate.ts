import { createRequire } from 'node:module'
import { embeddedFiles, extractExecutable } from '../../runtime/embedded'

/**
 * Which ffmpeg to run: FFMPEG_PATH when the operator set one; inside the single binary, the
 * embedded build, extracted on first use; else the static build that @ffmpeg-installer ships
 * inside its per-platform npm package (no download at install time); else `ffmpeg` on PATH.
 */
export function locateFfmpeg(configuredPath?: string): string {
  if (configuredPath) return configuredPath
  const embedded = embeddedFiles()?.ffmpeg
  if (embedded) return extractExecutable(embedded)
  try {
    const require = createRequire(import.meta.url)
    const installer = require('@ffmpeg-installer/ffmpeg') as { path: string }
    return installer.path
  } catch {
    return 'ffmpeg' // no package build for this platform: rely on the system one
  }
}
