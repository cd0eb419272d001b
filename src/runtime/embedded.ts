import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'

/**
 * Files compiled into the single binary (`npm run build:binary`, entry src/runtime/binary.ts):
 * each is a path Bun serves from inside the executable (`/$bunfs/...`). Running from
 * node_modules nothing is embedded and every reader falls back to the installed package.
 * Set once, before any command runs: what the executable contains is a fact of the process.
 */
export interface EmbeddedFiles {
  /** swagger-ui-dist files by name (`swagger-ui.css`, `swagger-ui-bundle.js`). */
  swaggerUi: Record<string, string>
  /** The static ffmpeg of @ffmpeg-installer for the binary's platform. */
  ffmpeg: string
}

let embedded: EmbeddedFiles | undefined

export function embedFiles(files: EmbeddedFiles): void {
  embedded = files
}

export const embeddedFiles = (): EmbeddedFiles | undefined => embedded

/**
 * A program inside the binary cannot be executed from there: copy it once to a real file
 * with exec permission and answer that path. The directory is systemd's CacheDirectory when
 * set, else the temp dir; it is private to the user (0700, checked), and the file name
 * carries Bun's content hash, so a new binary never runs an old copy and an upgrade re-extracts.
 */
export function extractExecutable(embeddedPath: string): string {
  const base = process.env.CACHE_DIRECTORY ?? tmpdir()
  const uid = process.getuid?.() ?? 0
  const dir = join(base, `wa-gateway-${uid}`)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const info = lstatSync(dir)
  if (!info.isDirectory() || info.uid !== uid || (info.mode & 0o077) !== 0) {
    throw new Error(`${dir} must be a directory owned by uid ${uid} with mode 0700 to hold extracted programs`)
  }
  const target = join(dir, basename(embeddedPath).replace(/\.$/, ''))
  const size = statSync(embeddedPath).size
  if (existsSync(target) && statSync(target).size === size) return target
  const partial = `${target}.${process.pid}.partial`
  // Read, not copyFile: Bun's embedded files answer stat and read but not copy_file_range.
  writeFileSync(partial, readFileSync(embeddedPath), { mode: 0o700 })
  chmodSync(partial, 0o755)
  renameSync(partial, target) // atomic: a concurrent start sees the whole file or none
  return target
}
