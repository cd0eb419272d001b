/** The gateway compiled to JavaScript for the benches: the CLI exactly as `npm start` runs it. */
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'tsdown'
import { cliBuild } from '../../tsdown.config'
import { root } from './processes'

/** Builds the package's CLI (tsdown.config.ts, its lazy imports kept as chunks) into a folder under the project root, where node_modules resolve. */
export async function compileGateway(): Promise<{ entry: string; cleanup(): void }> {
  const outDir = mkdtempSync(join(root, '.bench-build-'))
  await build({ ...cliBuild, outDir, config: false, logLevel: 'silent' })
  return { entry: join(outDir, 'cli.mjs'), cleanup: () => rmSync(outDir, { recursive: true, force: true }) }
}
