import { createRequire } from 'node:module'
import Database from 'better-sqlite3'
import { drizzle } from 'drizzle-orm/better-sqlite3'
import type { GatewayDatabase, SqliteClient } from '../database'
import * as schema from '../schema'

export function open(path: string): GatewayDatabase {
  return drizzle(new Database(path), { schema }) as unknown as GatewayDatabase
}

/** The bare connection, no Drizzle: for the lock file (see lock.ts). */
export function openClient(path: string): SqliteClient {
  return new Database(path)
}

/** What a worker thread requires to open the same file (see checkpointer.ts). */
export const entry = (): string => createRequire(import.meta.url).resolve('better-sqlite3')
