import { and, eq, sql } from 'drizzle-orm'
import type { GatewayDatabase } from '../../../db/database'
import { waAuth } from '../../../db/schema'

const param = (name: string) => sql.placeholder(name)
const byRow = and(
  eq(waAuth.sessionId, param('sessionId')),
  eq(waAuth.category, param('category')),
  eq(waAuth.keyId, param('keyId')),
)

/**
 * The key store's statements, prepared once per engine: a pairing writes its 812 pre-keys one
 * row at a time, and building each row's query anew in Drizzle was half of everything the
 * gateway allocated while connecting sessions (sampled: about 29 MB per pairing).
 */
export function authStatements(db: GatewayDatabase) {
  return {
    get: db.select({ value: waAuth.value }).from(waAuth).where(byRow).prepare(),
    upsert: db
      .insert(waAuth)
      .values({
        sessionId: param('sessionId'),
        category: param('category'),
        keyId: param('keyId'),
        value: param('value'),
      })
      .onConflictDoUpdate({
        target: [waAuth.sessionId, waAuth.category, waAuth.keyId],
        set: { value: sql`excluded.value` },
      })
      .prepare(),
    remove: db.delete(waAuth).where(byRow).prepare(),
  }
}

export type AuthStatements = ReturnType<typeof authStatements>
