import { loadConfig } from '../config'
import { closeDatabase, openDatabase } from '../db/database'
import { lockDatabaseFile } from '../db/lock'
import { appliedMigrationCount, migrate } from '../db/migrate'

export async function migrateCommand(): Promise<void> {
  const config = loadConfig(process.env)
  const lock = await lockDatabaseFile(
    config.databasePath,
    'migrations would change the tables under a running gateway (serve applies them itself at start)',
  )
  try {
    const db = await openDatabase(config.databasePath)
    const applied = migrate(db)
    console.log(`${applied} migration(s) applied; ${appliedMigrationCount(db)} in total at ${config.databasePath}`)
    closeDatabase(db)
  } finally {
    lock?.release()
  }
}
