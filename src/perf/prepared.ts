import type { GatewayDatabase } from '../db/database'

type Build = (db: GatewayDatabase) => unknown

/**
 * An optimisation (bench: text sends msg/s, `test/bench/sends.ts`; authed requests, whose
 * session-list and credential reads run prepared).
 *
 * Prepared statements of one gateway, built once on first use: Drizzle then neither rebuilds
 * the SQL text nor asks SQLite to prepare it again on every call. Lives in the gateway's
 * context (never at module level), tied to the connection it was made for.
 */
export interface StatementCache {
  readonly db: GatewayDatabase
  readonly statements: Map<Build, unknown>
}

export const createStatementCache = (db: GatewayDatabase): StatementCache => ({ db, statements: new Map() })

/**
 * The statement `build` makes (a `.prepare()`d Drizzle query with `sql.placeholder`s),
 * cached per gateway under the `build` function itself. When `ctx.db` is another handle than
 * the cache's (a transaction's), it is built for this call only.
 */
export function prepared<T>(
  ctx: { db: GatewayDatabase; statements: StatementCache },
  build: (db: GatewayDatabase) => T,
): T {
  const cache = ctx.statements
  if (cache.db !== ctx.db) return build(ctx.db)
  let statement = cache.statements.get(build) as T | undefined
  if (statement === undefined) {
    statement = build(ctx.db)
    cache.statements.set(build, statement)
  }
  return statement
}
