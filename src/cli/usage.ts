export class UsageError extends Error {
  override readonly name = 'UsageError'
}

export const usage = `Usage: npm run -s cli -- <command>

  serve                                   start the gateway (npm start)
  migrate                                 apply database migrations and exit
  workspace create <name> [--plan free|paid]
  workspace list
  workspace plan <name> free|paid         move a workspace to another plan
  key create <workspace>                  print a new API key (shown once)
  key list [<workspace>]
  key revoke <id>
  backup <file>                           copy the database (safe while serving)

Configuration comes from environment variables; see docs/configuration.md.`
