import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { brotliDecompressSync } from 'node:zlib'

/** Where a Chromium lives and what its process needs in its environment to start. */
export interface ChromiumBinary {
  executablePath: string
  env: Record<string, string>
}

/**
 * Debian's Chromium when it is installed (or CHROMIUM_PATH names one), otherwise the headless
 * shell packed inside the npm package @sparticuz/chromium, so that the tests need no apt.
 */
export function findChromium(): ChromiumBinary {
  const system = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  if (existsSync(system)) return { executablePath: system, env: {} }
  if (process.env.CHROMIUM_PATH) throw new Error(`CHROMIUM_PATH names no file: ${system}`)
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error('@sparticuz/chromium holds a Linux x64 Chromium only: install Chromium and set CHROMIUM_PATH')
  return unpackedSparticuz()
}

/**
 * Unpacks @sparticuz/chromium's brotli files into one directory per package version, once.
 * Not the package's own `executablePath()`: it writes /tmp/chromium in place and answers
 * "done" to anyone who finds the file, so a second test process started alongside got a
 * half-written binary (ETXTBSY, seen with two processes). Here each process unpacks into a
 * private directory and renames it into place; a rename is atomic, the loser drops its copy.
 */
function unpackedSparticuz(): ChromiumBinary {
  const bin = join(dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')), '..', 'bin')
  const { version } = JSON.parse(readFileSync(join(bin, '..', 'package.json'), 'utf8')) as { version: string }
  const dir = join(tmpdir(), `sparticuz-chromium-${version}`)
  if (!existsSync(join(dir, 'chromium'))) {
    const staging = `${dir}.${process.pid}.${Date.now()}`
    unpackInto(bin, staging, dir)
    try {
      renameSync(staging, dir)
    } catch (error) {
      rmSync(staging, { recursive: true, force: true })
      if (!existsSync(join(dir, 'chromium'))) throw error
    }
  }
  return {
    executablePath: join(dir, 'chromium'),
    env: {
      // NSS, NSPR and expat from the package (built for Amazon Linux 2023): the binary links them
      // and a bare Debian lacks libnss3; with these only glibc and libgcc_s come from the system.
      LD_LIBRARY_PATH: join(dir, 'lib'),
      // The package's fonts (Open Sans): the same text metrics on every machine, with or
      // without system fonts. Its own fonts.conf names /tmp/fonts, hence one of ours.
      FONTCONFIG_PATH: dir,
    },
  }
}

/** Unpacks into `staging`, for use once renamed to `dir` (fonts.conf names final paths). */
function unpackInto(bin: string, staging: string, dir: string): void {
  mkdirSync(staging, { recursive: true })
  writeFileSync(join(staging, 'chromium'), brotliDecompressSync(readFileSync(join(bin, 'chromium.br'))), {
    mode: 0o755,
  })
  // fonts/ and lib/; Debian's tar reads the archives, which spares a dependency on tar-fs.
  // swiftshader (software WebGL) is left packed: the launcher turns the GPU off.
  for (const archive of ['fonts.tar.br', 'al2023.tar.br'])
    execFileSync('tar', ['-x', '--no-same-owner', '-C', staging], {
      input: brotliDecompressSync(readFileSync(join(bin, archive))),
    })
  // The package's fonts first; the system's, where there are any, for glyphs Open Sans lacks.
  writeFileSync(
    join(staging, 'fonts.conf'),
    [
      '<?xml version="1.0"?>',
      '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
      '<fontconfig>',
      `  <dir>${join(dir, 'fonts')}</dir>`,
      '  <dir>/usr/share/fonts</dir>',
      `  <cachedir>${join(dir, 'fonts-cache')}</cachedir>`,
      '</fontconfig>',
      '',
    ].join('\n'),
  )
}
