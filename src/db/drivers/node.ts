import Database from 'better-sqlite3'
import { drizzle } from 'drizzle-orm/better-sqlite3'
import type { GatewayDatabase } from '../database'
import * as schema from '../schema'

export function open(path: string): GatewayDatabase {
  return drizzle(new Database(path), { schema }) as unknown as GatewayDatabase
}
