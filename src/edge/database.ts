/**
 * The gateway's database inside a Durable Object: the same Drizzle schema and the same embedded
 * migrations as on Node/Bun, over the object's own SQLite through drizzle-orm/durable-sqlite, a
 * synchronous driver like better-sqlite3 and bun:sqlite, so every service runs unchanged.
 */
import { drizzle } from 'drizzle-orm/durable-sqlite'
import { sha256Hex } from '../crypto'
import type { GatewayDatabase, SqliteClient } from '../db/database'
import { embeddedMigrations } from '../db/migrations/bundle'
import * as schema from '../db/schema'

/** What services call on `db.$client` (readiness probe, migration count), over `storage.sql`. */
function sqlClient(storage: DurableObjectStorage): SqliteClient {
  return {
    prepare: (sql) => ({
      get: (...params) => storage.sql.exec(sql, ...params).toArray()[0],
      all: (...params) => storage.sql.exec(sql, ...params).toArray(),
    }),
    exec: (sql) => storage.sql.exec(sql),
    close: () => {},
  }
}

export function openDurableDatabase(storage: DurableObjectStorage): GatewayDatabase {
  const db = drizzle(storage, { schema }) as unknown as GatewayDatabase
  // Drizzle's session keeps its own reference to the storage; $client is only what our code reads.
  return Object.assign(db, { $client: sqlClient(storage) })
}

/**
 * drizzle's SQLite migrator, with drizzle-kit's bookkeeping table, in `transactionSync`: a Durable
 * Object refuses BEGIN/COMMIT statements, which the sync dialect's `migrate` issues.
 * Returns how many migrations were applied.
 */
export function migrateDurable(storage: DurableObjectStorage): number {
  return storage.transactionSync(() => {
    storage.sql.exec(
      'CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)',
    )
    const last = storage.sql
      .exec<{ created_at: number }>('SELECT created_at FROM "__drizzle_migrations" ORDER BY created_at DESC LIMIT 1')
      .toArray()[0]
    let applied = 0
    for (const migration of embeddedMigrations) {
      if (last && Number(last.created_at) >= migration.when) continue
      for (const statement of migration.sql.split('--> statement-breakpoint')) {
        if (statement.trim()) storage.sql.exec(statement)
      }
      storage.sql.exec(
        'INSERT INTO "__drizzle_migrations" ("hash", "created_at") VALUES (?, ?)',
        sha256Hex(migration.sql),
        migration.when,
      )
      applied++
    }
    return applied
  })
}
