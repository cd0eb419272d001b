import { and, eq, sql } from 'drizzle-orm'
import { prepared, type StatementCache } from '../perf/prepared'
import { commitWrites, groupWrite } from '../perf/group-commit'
import type { GatewayDatabase } from './database'
import { waAuth } from './schema'

/** The creds row's key: category `creds`, no key id. */
const CREDS = 'creds'
const NO_KEY_ID = ''

const param = (name: string) => sql.placeholder(name)
const byRow = and(
  eq(waAuth.sessionId, param('sessionId')),
  eq(waAuth.category, param('category')),
  eq(waAuth.keyId, param('keyId')),
)

/**
 * The engine's AuthStore (engine/whatsapp/port/auth-store.ts) over `wa_auth`, matching it by
 * shape so that the database imports nothing of the engine. Its statements are prepared once
 * per gateway (perf/prepared.ts, with the others): a pairing writes its 812 pre-keys one row at a time, and building each row's
 * query anew in Drizzle was half of everything the gateway allocated while connecting sessions
 * (sampled: about 29 MB per pairing).
 */
const get = (db: GatewayDatabase) => db.select({ value: waAuth.value }).from(waAuth).where(byRow).prepare()
const upsert = (db: GatewayDatabase) =>
  db
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
    .prepare()
const remove = (db: GatewayDatabase) => db.delete(waAuth).where(byRow).prepare()
const removeAll = (db: GatewayDatabase) =>
  db
    .delete(waAuth)
    .where(eq(waAuth.sessionId, param('sessionId')))
    .prepare()

export function sqliteAuthStore(ctx: { db: GatewayDatabase; statements: StatementCache }) {
  const { db } = ctx
  return {
    readCreds: (sessionId: string): string | undefined =>
      prepared(ctx, get).get({ sessionId, category: CREDS, keyId: NO_KEY_ID })?.value,
    writeCreds(sessionId: string, text: string): void {
      prepared(ctx, upsert).run({ sessionId, category: CREDS, keyId: NO_KEY_ID, value: text })
    },
    readKey: (sessionId: string, category: string, keyId: string): string | undefined =>
      prepared(ctx, get).get({ sessionId, category, keyId })?.value,
    writeKey(sessionId: string, category: string, keyId: string, text: string | null): void {
      if (text === null) prepared(ctx, remove).run({ sessionId, category, keyId })
      else prepared(ctx, upsert).run({ sessionId, category, keyId, value: text })
    },
    // Key writes join the connection's group commit (perf/group-commit.ts): a received
    // message's keys commit with its record, before its receipt goes out.
    atomically(writes: () => void): void {
      groupWrite(db, writes)
    },
    commit(): void {
      commitWrites(db)
    },
    clear(sessionId: string): void {
      prepared(ctx, removeAll).run({ sessionId })
    },
  }
}
