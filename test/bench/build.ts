/** The gateway compiled to JavaScript for the benches (what a build step gives `npm start`). */
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { root } from './processes'

/** Compiles src/cli.ts (code splitting keeps the dynamic imports lazy) into a folder under the project root. */
export async function compileGateway(): Promise<{ entry: string; cleanup(): void }> {
  const outdir = mkdtempSync(join(root, '.bench-build-'))
  await build({
    entryPoints: [join(root, 'src/cli.ts')],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
  })
  return { entry: join(outdir, 'cli.js'), cleanup: () => rmSync(outdir, { recursive: true, force: true }) }
}
