import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { readElfHeader } from '../support/elf'
import { repoRoot } from '../support/process'
import { tempDir } from '../support/temp-dir'

const release = join(repoRoot, 'release')
const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version
const units = ['wa-gateway.service', 'wa-gateway-backup.service', 'wa-gateway-backup.timer']

/**
 * `npm run release` → release/, what docs/deployment.md's "VPS in five minutes" downloads: both
 * binaries, the npm tarball, the systemd units and SHA256SUMS, checked the way the server does.
 */
describe('npm run release', () => {
  beforeAll(() => {
    const started = performance.now()
    const made = spawnSync('npm', ['run', '-s', 'release'], { cwd: repoRoot, encoding: 'utf8' })
    if (made.status !== 0) throw new Error(`npm run release failed:\n${made.stdout}\n${made.stderr}`)
    console.log(`npm run release: ${Math.round(performance.now() - started)} ms`)
  }, 600_000)

  it('puts the binaries, the npm tarball, the units and SHA256SUMS in release/, and nothing else', () => {
    expect(readdirSync(release).sort()).toEqual(
      [
        'SHA256SUMS',
        'wa-gateway-linux-arm64',
        'wa-gateway-linux-x64',
        `wa-session-gateway-${version}.tgz`,
        ...units,
      ].sort(),
    )
  })

  it('SHA256SUMS names every other file, and sha256sum --check passes for each', () => {
    const listed = readFileSync(join(release, 'SHA256SUMS'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => /^[0-9a-f]{64} {2}(\S+)$/.exec(line)![1])
    expect(listed.sort()).toEqual(
      readdirSync(release)
        .filter((f) => f !== 'SHA256SUMS')
        .sort(),
    )
    const checked = spawnSync('sha256sum', ['--check', '--strict', 'SHA256SUMS'], { cwd: release, encoding: 'utf8' })
    expect(checked.status, checked.stderr).toBe(0)
    expect(checked.stdout.trim().split('\n')).toHaveLength(listed.length)
  })

  it('holds a binary for each CPU, and the x64 one runs', () => {
    expect(readElfHeader(join(release, 'wa-gateway-linux-x64')).machine).toBe('x86-64')
    expect(readElfHeader(join(release, 'wa-gateway-linux-arm64')).machine).toBe('AArch64')
    const dir = tempDir('wa-release-')
    try {
      const migrated = spawnSync(join(release, 'wa-gateway-linux-x64'), ['migrate'], {
        env: { PATH: '/nonexistent', DATABASE_PATH: join(dir.path, 'gateway.db') },
        encoding: 'utf8',
      })
      expect(migrated.status, migrated.stderr).toBe(0)
      expect(migrated.stdout).toMatch(/migration\(s\) applied/)
    } finally {
      dir.cleanup()
    }
  })

  it("holds the npm package with the CLI, and the repository's units unchanged", () => {
    const listing = spawnSync('tar', ['-tzf', join(release, `wa-session-gateway-${version}.tgz`)], { encoding: 'utf8' })
    expect(listing.stdout.split('\n')).toEqual(expect.arrayContaining(['package/package.json', 'package/dist/cli.mjs']))
    for (const unit of units) {
      expect(readFileSync(join(release, unit), 'utf8')).toBe(readFileSync(join(repoRoot, 'deploy', unit), 'utf8'))
    }
  })
})
