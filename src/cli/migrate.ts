import { loadConfig } from '../config'
import { closeDatabase, openDatabase } from '../db/database'
import { appliedMigrationCount, migrate } from '../db/migrate'

export async function migrateCommand(): Promise<void> {
  const config = loadConfig(process.env)
  const db = await openDatabase(config.databasePath)
  const applied = migrate(db)
  console.log(`${applied} migration(s) applied; ${appliedMigrationCount(db)} in total at ${config.databasePath}`)
  closeDatabase(db)
}
