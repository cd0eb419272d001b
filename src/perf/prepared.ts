import { sql } from 'drizzle-orm'
import type { GatewayDatabase } from '../db/database'

type Build = (db: never) => unknown

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
 * The SQLite connection a Drizzle handle runs on: a transaction shares its database's session
 * (Drizzle keeps the field internal), so a statement prepared on the database runs inside a
 * transaction of it when called there.
 */
const connectionOf = (handle: object): unknown => (handle as { session?: unknown }).session ?? handle

/**
 * The statement `build` makes (a `.prepare()`d Drizzle query with `sql.placeholder`s) for
 * `ctx.db`, cached per gateway under the `build` function itself. `ctx.db` may be the cache's
 * database or a transaction on it (same connection: the cached statement); on any other
 * handle it is built for this call only.
 */
export function prepared<D extends object, T>(ctx: { db: D; statements: StatementCache }, build: (db: D) => T): T {
  const cache = ctx.statements
  if (cache.db !== ctx.db && connectionOf(cache.db) !== connectionOf(ctx.db)) return build(ctx.db)
  let statement = cache.statements.get(build) as T | undefined
  if (statement === undefined) {
    statement = build(ctx.db)
    cache.statements.set(build, statement)
  }
  return statement
}

/**
 * An optimisation (bench: inbound msg/s; the webhook dispatcher's head query, run for every
 * delivery, took ~75 µs with its LIMIT bound and ~20 µs with it written in).
 *
 * A LIMIT for a prepared statement, written into its SQL. Drizzle binds `.limit(n)` as a
 * parameter, and SQLite lets a bound LIMIT steer its plan: it marks the statement to be prepared
 * again whenever that parameter is bound, which a prepared statement does on every run.
 * Drizzle writes an SQL object given as a limit into the text; its types accept only a number.
 */
export const fixedLimit = (rows: number): number => {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new RangeError(`a LIMIT is a whole number of rows, not ${rows}`)
  return sql.raw(String(rows)) as unknown as number
}
