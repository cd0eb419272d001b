import type { MigrationMeta } from 'drizzle-orm/migrator'
import { sha256Hex } from '../crypto'
import type { GatewayDatabase } from './database'
import { embeddedMigrations } from './migrations/bundle'
import type { EmbeddedMigration } from './migrations/folder'

/** drizzle-orm's own migration format: statements split at drizzle-kit's breakpoints. */
function toMigrationMeta(m: EmbeddedMigration): MigrationMeta {
  return {
    sql: m.sql.split('--> statement-breakpoint'),
    bps: m.breakpoints,
    folderMillis: m.when,
    hash: sha256Hex(m.sql),
  }
}

interface SyncMigrator {
  dialect: { migrate(migrations: MigrationMeta[], session: unknown, config: object): void }
  session: unknown
}

/**
 * Applies the embedded migrations with drizzle's own SQLite migrator (same bookkeeping table,
 * `__drizzle_migrations`, as drizzle-kit), in one transaction. Returns how many were applied.
 */
export function migrate(db: GatewayDatabase, migrations: EmbeddedMigration[] = embeddedMigrations): number {
  const before = appliedMigrationCount(db)
  const { dialect, session } = db as unknown as SyncMigrator
  dialect.migrate(migrations.map(toMigrationMeta), session, {})
  return appliedMigrationCount(db) - before
}

export function appliedMigrationCount(db: GatewayDatabase): number {
  const table = db.$client.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'",
  )
  if (!table.get()) return 0
  const row = db.$client.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number }
  return row.n
}
