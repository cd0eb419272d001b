#!/usr/bin/env node
/** The gateway's command line: `npm start` runs `serve`; `npm run -s cli -- <command>` the rest. */
import { parseArgs } from 'node:util'
import { backupCommand } from './cli/backup'
import { keyCommand } from './cli/key'
import { migrateCommand } from './cli/migrate'
import { ListenError, serveCommand } from './cli/serve'
import { usage, UsageError } from './cli/usage'
import { workspaceCommand } from './cli/workspace'
import { ConfigError } from './config'
import { DatabaseInUseError } from './db/lock'
import { GatewayError } from './errors'

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { plan: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  })
  const [command, ...rest] = positionals
  if (values.help || !command) return void console.log(usage)
  switch (command) {
    case 'serve':
      return serveCommand()
    case 'migrate':
      return migrateCommand()
    case 'workspace':
      return workspaceCommand(rest, values)
    case 'key':
      return keyCommand(rest)
    case 'backup':
      return backupCommand(rest)
    default:
      throw new UsageError(`Unknown command "${command}"`)
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof GatewayError) {
    console.error(error.message)
    process.exit(2)
  }
  if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`${(error as Error).message}\n\n${usage}`)
    process.exit(64)
  }
  if (error instanceof ListenError || error instanceof DatabaseInUseError) {
    console.error(error.message)
    process.exit(1)
  }
  console.error(error)
  process.exit(1)
})
