/**
 * A per-platform npm package (Bun's runtime `@oven/bun-linux-*`, ffmpeg's `@ffmpeg-installer/linux-*`)
 * for a CPU that need not be this machine's, for `scripts/build-binary.ts`.
 *
 * npm installs an optional dependency only when its `os`/`cpu` match the machine, so `npm ci` on
 * x64 leaves out the arm64 ones; package-lock.json still pins each one's version and integrity
 * (they are optional dependencies of `bun` and `@ffmpeg-installer/ffmpeg`). `npm ci --cpu=arm64`
 * is no way out: npm takes one cpu, and would then leave out the x64 ones instead. So the installed
 * copy is used when npm installed it; else the locked tarball is fetched with `npm pack` (npm's own
 * registry, proxy and cache settings, no install script run), its sha512 checked against the
 * lockfile, and unpacked once into .cache/platform-packages/<name>@<version>/.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..')
const cacheDir = join(root, '.cache/platform-packages')

interface Locked {
  version: string
  integrity: string
}

function locked(name: string): Locked {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, Partial<Locked>>
  }
  const entry = lock.packages[`node_modules/${name}`]
  if (!entry?.version || !entry.integrity) throw new Error(`${name} is not in package-lock.json`)
  return { version: entry.version, integrity: entry.integrity }
}

/** The package's directory at the locked version: node_modules' copy, else a fetched one. */
export function platformPackage(name: string): { dir: string; version: string } {
  const { version, integrity } = locked(name)
  const installed = join(root, 'node_modules', name)
  if (existsSync(join(installed, 'package.json'))) {
    const found = (JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { version: string }).version
    if (found === version) return { dir: installed, version }
  }
  const dir = join(cacheDir, `${name.replace('/', '+')}@${version}`)
  if (existsSync(join(dir, 'package.json'))) return { dir, version }

  mkdirSync(cacheDir, { recursive: true })
  const work = mkdtempSync(join(cacheDir, '.fetch-'))
  try {
    const packed = spawnSync('npm', ['pack', `${name}@${version}`, '--json', '--pack-destination', work], {
      encoding: 'utf8',
    })
    if (packed.status !== 0) throw new Error(`npm pack ${name}@${version} failed:\n${packed.stderr}`)
    const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }]
    const tarball = join(work, filename)
    const [algorithm] = integrity.split('-', 1) as [string]
    const actual = `${algorithm}-${createHash(algorithm).update(readFileSync(tarball)).digest('base64')}`
    if (actual !== integrity) throw new Error(`${filename}: integrity ${actual}, package-lock.json has ${integrity}`)
    const unpacked = join(work, 'package')
    mkdirSync(unpacked)
    const tar = spawnSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1'], { encoding: 'utf8' })
    if (tar.status !== 0) throw new Error(`unpacking ${filename} failed:\n${tar.stderr}`)
    // Atomic: a concurrent build sees the whole package or none; if one got there first, use its copy.
    try {
      renameSync(unpacked, dir)
    } catch (error) {
      if (!existsSync(join(dir, 'package.json'))) throw error
    }
    return { dir, version }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
