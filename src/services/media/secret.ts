import { randomBytes } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import type { GatewayDatabase } from '../../db/database'
import { prepared } from '../../perf/prepared'
import { gatewaySecrets } from '../../db/schema'
import type { ServiceContext } from '../context'

const insertIfMissing = (db: GatewayDatabase) =>
  db
    .insert(gatewaySecrets)
    .values({ name: sql.placeholder('name'), value: sql.placeholder('value'), createdAt: sql.placeholder('createdAt') })
    .onConflictDoNothing()
    .prepare()
const selectSecret = (db: GatewayDatabase) =>
  db
    .select({ value: gatewaySecrets.value })
    .from(gatewaySecrets)
    .where(eq(gatewaySecrets.name, sql.placeholder('name')))
    .prepare()

/**
 * A secret of the gateway itself, kept in the database: made by whichever process needs it
 * first (INSERT OR IGNORE, then read back), so every process on the file signs and verifies
 * with the same one, and it outlives restarts. See docs/architecture.md ("Signed media URLs").
 */
export function gatewaySecret(ctx: ServiceContext, name: string): string {
  const existing = prepared(ctx, selectSecret).get({ name })
  if (existing) return existing.value
  prepared(ctx, insertIfMissing).run({
    name,
    value: randomBytes(32).toString('base64url'),
    createdAt: ctx.clock.now(),
  })
  return prepared(ctx, selectSecret).get({ name })!.value
}
