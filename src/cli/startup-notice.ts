import { basename, relative } from 'node:path'
import { embeddedFiles } from '../runtime/embedded'
import { printable } from './printable'

/**
 * What `serve` tells the person who started it, besides the log: where the panel, the docs and
 * the API are, and on a database that already has workspaces (no key is shown again) how to
 * make a new key. Written to stderr: stdout carries the JSON log, which a log shipper parses
 * line by line, and a human line there would be a parse error in every start.
 */
export function startupNotice(base: string, workspaces: readonly { name: string }[] | undefined): string {
  const lines = [`wa-gateway is up: panel ${base}/panel · API docs ${base}/docs · API ${base}/v1`]
  if (workspaces) {
    const cli = cliInvocation()
    const only = workspaces.length === 1 ? printable(workspaces[0]!.name) : undefined
    lines.push(
      only
        ? `Lost the API key? Make a new one: ${cli} key create ${only}`
        : `Lost an API key? Make a new one: ${cli} key create <workspace> (${cli} workspace list names them)`,
    )
  }
  return `${lines.join('\n')}\n`
}

/**
 * How the person who started this process runs the CLI's other commands: the single binary by
 * its own name, the installed package through npx, the compiled CLI by its path (npm start,
 * a container), the TypeScript source through the repository's `cli` script (npm run dev).
 */
function cliInvocation(): string {
  if (embeddedFiles()) return basename(process.execPath)
  const script = process.argv[1] ?? ''
  if (script.endsWith('.ts')) return 'npm run -s cli --'
  if (script.includes('/node_modules/')) return 'npx wa-gateway'
  return `${basename(process.execPath).startsWith('bun') ? 'bun' : 'node'} ${relative(process.cwd(), script) || script}`
}
