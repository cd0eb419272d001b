/**
 * `npm run release`: what a release attaches, in release/ (emptied first):
 *   wa-gateway-linux-x64, wa-gateway-linux-arm64   the single binaries (npm run build:binary)
 *   wa-session-gateway-<version>.tgz               the npm package (npm pack)
 *   wa-gateway.service, wa-gateway-backup.*         the systemd units (deploy/)
 *   SHA256SUMS                                     `sha256sum -c` reads it (docs/deployment.md)
 * Both binaries build on any machine Bun runs on (each target's runtime comes from the npm
 * registry, scripts/platform-package.ts). The package first: its prepare script rebuilds dist/*.mjs,
 * which the binaries do not read, and leaves dist/wa-gateway* alone.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, createReadStream, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..')
const out = join(root, 'release')
const binaries = [
  { built: 'dist/wa-gateway', name: 'wa-gateway-linux-x64' },
  { built: 'dist/wa-gateway-linux-arm64', name: 'wa-gateway-linux-arm64' },
]

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (status ${result.status})`)
  return result.stdout
}

const sha256 = (path: string) =>
  new Promise<string>((resolve, reject) => {
    const hash = createHash('sha256')
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject)
  })

rmSync(out, { recursive: true, force: true })
mkdirSync(out)
// Not --json: the prepare script's own output shares npm pack's stdout.
run('npm', ['pack', '--pack-destination', out])
const tarball = readdirSync(out).find((name) => name.endsWith('.tgz'))
if (!tarball) throw new Error('npm pack wrote no tarball')
process.stdout.write(run(join(root, 'node_modules/.bin/bun'), ['scripts/build-binary.ts']))
for (const { built, name } of binaries) copyFileSync(join(root, built), join(out, name))

// The VPS steps fetch the units from the release too: one place, checked by the same sums.
const units = ['wa-gateway.service', 'wa-gateway-backup.service', 'wa-gateway-backup.timer']
for (const unit of units) copyFileSync(join(root, 'deploy', unit), join(out, unit))

const files = [...binaries.map((b) => b.name), tarball, ...units]
const sums = await Promise.all(files.map(async (name) => `${await sha256(join(out, name))}  ${name}\n`))
writeFileSync(join(out, 'SHA256SUMS'), sums.join(''))
console.log(`release/: ${readdirSync(out).sort().join(', ')}`)
