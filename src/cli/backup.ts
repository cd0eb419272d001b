import { backupDatabase } from '../db/backup'
import { closeDatabase } from '../db/database'
import { commandContext } from './context'
import { UsageError } from './usage'

export async function backupCommand(args: string[]): Promise<void> {
  const [target] = args
  if (!target) throw new UsageError('backup needs a target file, e.g. backup /var/backups/gateway-$(date +%F).db')
  const ctx = await commandContext()
  const path = backupDatabase(ctx.db, target)
  closeDatabase(ctx.db)
  console.log(`backed up ${ctx.config.databasePath} to ${path}`)
}
