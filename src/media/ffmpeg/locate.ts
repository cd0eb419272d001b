import { createRequire } from 'node:module'

/**
 * Which ffmpeg to run: FFMPEG_PATH when the operator set one, else the static build that
 * @ffmpeg-installer ships inside its per-platform npm package (no download at install
 * time, and a file a Bun single binary can embed), else `ffmpeg` on PATH.
 */
export function locateFfmpeg(configuredPath?: string): string {
  if (configuredPath) return configuredPath
  try {
    const require = createRequire(import.meta.url)
    const installer = require('@ffmpeg-installer/ffmpeg') as { path: string }
    return installer.path
  } catch {
    return 'ffmpeg' // no package build for this platform: rely on the system one
  }
}
