import { Database } from 'bun:sqlite'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import type { GatewayDatabase, SqliteClient } from '../database'
import * as schema from '../schema'

export function open(path: string): GatewayDatabase {
  return drizzle(new Database(path, { create: true, strict: true }), { schema }) as unknown as GatewayDatabase
}

/** The bare connection, no Drizzle: for the lock file (see lock.ts). */
export function openClient(path: string): SqliteClient {
  return new Database(path, { create: true })
}

/** What a worker thread requires to open the same file (see checkpointer.ts). */
export const entry = (): string => 'bun:sqlite'
