import { backupDatabase } from '../db/backup'
import { closeDatabase, openDatabase } from '../db/database'
import { loadConfig } from '../config'
import { UsageError } from './usage'

/** Copies the database as it is: no migrations, so backing up before an upgrade changes nothing. */
export async function backupCommand(args: string[]): Promise<void> {
  const [target] = args
  if (!target) throw new UsageError('backup needs a target file, e.g. backup /var/backups/gateway-$(date +%F).db')
  const config = loadConfig(process.env)
  const db = await openDatabase(config.databasePath)
  try {
    console.log(`backed up ${config.databasePath} to ${backupDatabase(db, target)}`)
  } finally {
    closeDatabase(db)
  }
}
