/**
 * n8n's own checks on the community package: @n8n/scan-community-package's ESLint gate (the
 * @n8n/eslint-plugin-community-nodes recommended rules and eslint-plugin-n8n-nodes-base's
 * community, nodes and credentials rulesets, as `n8n-node lint` applies them) on both of its legs:
 * the packed tarball (compiled .js and package.json) and the TypeScript sources. The scanner's
 * CLI only takes a published package name (it checks npm provenance first), so this calls its
 * exported `analyzePackage` on each. The scanner (eslint, typescript, ...) is installed into a
 * temp folder: `npx tsx scripts/n8n-scan.ts` (by hand, ~1 min; not part of `npm test`).
 */
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const SCANNER = '@n8n/scan-community-package@0.32.0'
const root = join(import.meta.dirname, '..')
const work = mkdtempSync(join(tmpdir(), 'n8n-scan-'))
const run = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })

try {
  // --ignore-scripts: eslint-plugin-n8n-nodes-base's preinstall demands pnpm; nothing here needs a build.
  writeFileSync(join(work, 'package.json'), '{"private":true}')
  run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', SCANNER], work)

  run('npm', ['run', 'build', '--workspace', 'integrations/n8n'], root)
  run('npm', ['pack', '--workspace', 'integrations/n8n', '--pack-destination', work], root)
  const tarball = readdirSync(work).find((f) => f.startsWith('n8n-nodes-') && f.endsWith('.tgz'))!
  const packed = join(work, 'packed')
  mkdirSync(packed)
  run('tar', ['-xzf', join(work, tarball), '-C', packed, '--strip-components=1'], work)
  const sources = join(work, 'sources')
  for (const part of ['package.json', 'nodes', 'credentials'])
    cpSync(join(root, 'integrations/n8n', part), join(sources, part), { recursive: true })

  const scanner = await import(
    pathToFileURL(join(work, 'node_modules/@n8n/scan-community-package/scanner/scanner.mjs')).href
  )
  let failed = false
  for (const [leg, dir, patterns] of [
    ['tarball', packed, ['**/*.js', 'package.json']],
    ['sources', sources, scanner.SOURCE_FILE_PATTERNS],
  ] as const) {
    const result = await scanner.analyzePackage(dir, patterns)
    console.log(`${leg}: ${result.passed ? 'passed' : `FAILED (${result.message})`}`)
    if (result.details) console.log(result.details)
    failed ||= !result.passed
  }
  process.exitCode = failed ? 1 : 0
} finally {
  rmSync(work, { recursive: true, force: true })
}
