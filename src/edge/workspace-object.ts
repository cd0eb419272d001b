/**
 * One workspace's home: a SQLite-backed Durable Object holding what must stay consistent across
 * its sessions: the workspace row, the daily contact-check quota (the same quota service as on
 * Node), and the session index (name → session id → status) that routes requests, counts the
 * plan's session cap and lists the sessions. Why an object and not D1: the services are
 * synchronous SQLite transactions; an object's SQLite is synchronous and single-threaded, so
 * the cap and the quota are checked-and-counted atomically with the same code, and a workspace
 * never spans two writers. D1 is asynchronous and would need every service rewritten.
 */
import { DurableObject } from 'cloudflare:workers'
import { and, count, eq, inArray, ne } from 'drizzle-orm'
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { drizzle } from 'drizzle-orm/durable-sqlite'
import { systemClock } from '../clock'
import type { GatewayConfig, PlanName } from '../config'
import { liveStatuses } from '../db/schema'
import { GatewayError } from '../errors'
import { rateLimitHeaders } from '../http/quota-headers'
import { quotaState, quotaWindow, refundChecks, reserveChecks } from '../services/contacts/quota'
import type { CoreContext } from '../services/context'
import { assertSessionCap } from '../services/sessions/plan-rules'
import { ensureWorkspace } from '../services/workspaces'
import { migrateDurable, openDurableDatabase } from './database'
import { edgeConfig, type EdgeEnv } from './env'
import { createEdgeLogger } from './logger'

/** The edge-only session index; the sessions themselves live in their own objects. */
const edgeSessions = sqliteTable('edge_sessions', {
  name: text('name').primaryKey(),
  sessionId: text('session_id').unique(),
  status: text('status').notNull(),
  updatedAt: integer('updated_at').notNull(),
})

/** A GatewayError as plain data: errors thrown over RPC keep only their message. */
export type Refusal = {
  error: {
    code: GatewayError['code']
    message: string
    details: Record<string, unknown>
    headers: Record<string, string>
  }
}
const refusal = (error: GatewayError): Refusal => ({
  error: { code: error.code, message: error.message, details: error.details, headers: error.headers },
})

export class WorkspaceObject extends DurableObject<EdgeEnv> {
  readonly #ctx: CoreContext
  readonly #index

  constructor(ctx: DurableObjectState, env: EdgeEnv) {
    super(ctx, env)
    const config: GatewayConfig = edgeConfig(env)
    migrateDurable(ctx.storage)
    ctx.storage.sql.exec(
      'CREATE TABLE IF NOT EXISTS edge_sessions (name TEXT PRIMARY KEY, session_id TEXT UNIQUE, status TEXT NOT NULL, updated_at INTEGER NOT NULL)',
    )
    this.#ctx = {
      db: openDurableDatabase(ctx.storage),
      clock: systemClock,
      config,
      logger: createEdgeLogger(config.logLevel, { object: 'workspace' }),
    }
    this.#index = drizzle(ctx.storage)
  }

  /**
   * Before a connect: refuses it when the plan's cap of live sessions is reached by *other*
   * names (a name already live is the session object's to refuse, 409), else holds the name as
   * pending so concurrent connects count each other. Checked and written in one step.
   */
  claim(input: { workspace: string; plan: PlanName; sessionName: string }): { ok: true } | Refusal {
    ensureWorkspace(this.#ctx, input.workspace)
    const live = this.#index
      .select({ n: count() })
      .from(edgeSessions)
      .where(and(inArray(edgeSessions.status, liveStatuses), ne(edgeSessions.name, input.sessionName)))
      .get()!.n
    try {
      assertSessionCap(this.#ctx.config, input.plan, live)
    } catch (error) {
      if (error instanceof GatewayError) return refusal(error)
      throw error
    }
    const now = Date.now()
    this.#index
      .insert(edgeSessions)
      .values({ name: input.sessionName, status: 'pending', updatedAt: now })
      .onConflictDoUpdate({ target: edgeSessions.name, set: { status: 'pending', updatedAt: now } })
      .run()
    return { ok: true }
  }

  /** The workspace row (created on first sight, as a JWT workspace is on Node). */
  workspace(name: string): { id: string; name: string } {
    const { id } = ensureWorkspace(this.#ctx, name)
    return { id, name }
  }

  /** After a connect: what the session object says the name now is (or that it holds nothing). */
  record(sessionName: string, session: { sessionId: string; status: string } | null): void {
    if (!session) {
      this.#index.delete(edgeSessions).where(eq(edgeSessions.name, sessionName)).run()
      return
    }
    const set = { sessionId: session.sessionId, status: session.status, updatedAt: Date.now() }
    this.#index
      .insert(edgeSessions)
      .values({ name: sessionName, ...set })
      .onConflictDoUpdate({ target: edgeSessions.name, set })
      .run()
  }

  /** Every status change a session object reports (reconnects, logouts, disconnects). */
  noteStatus(sessionId: string, status: string): void {
    this.#index
      .update(edgeSessions)
      .set({ status, updatedAt: Date.now() })
      .where(eq(edgeSessions.sessionId, sessionId))
      .run()
  }

  /** Which session name (and so object) a session id belongs to; null: not this workspace's. */
  locate(sessionId: string): string | null {
    return (
      this.#index
        .select({ name: edgeSessions.name })
        .from(edgeSessions)
        .where(eq(edgeSessions.sessionId, sessionId))
        .get()?.name ?? null
    )
  }

  /** The id of the session with this name, if it has one (a name sent where the id goes). */
  idOfName(sessionName: string): string | null {
    return (
      this.#index
        .select({ sessionId: edgeSessions.sessionId })
        .from(edgeSessions)
        .where(eq(edgeSessions.name, sessionName))
        .get()?.sessionId ?? null
    )
  }

  sessionNames(): string[] {
    return this.#index
      .select({ name: edgeSessions.name })
      .from(edgeSessions)
      .all()
      .map((row) => row.name)
  }

  /** The workspace's daily contact-check quota, counted here for all its sessions (same service as Node). */
  reserveChecks(input: {
    workspace: string
    plan: PlanName
    count: number
  }): { headers: Record<string, string>; day: string } | Refusal {
    const workspace = ensureWorkspace(this.#ctx, input.workspace)
    const now = new Date()
    const window = quotaWindow(now, this.#ctx.config.plans[input.plan].dailyContactChecks)
    try {
      const used = reserveChecks(this.#ctx, workspace.id, input.count, window)
      return { headers: rateLimitHeaders(quotaState(window, used), now), day: window.day }
    } catch (error) {
      if (error instanceof GatewayError) return refusal(error)
      throw error
    }
  }

  refundChecks(input: { workspace: string; plan: PlanName; count: number }): void {
    const workspace = ensureWorkspace(this.#ctx, input.workspace)
    refundChecks(
      this.#ctx,
      workspace.id,
      input.count,
      quotaWindow(new Date(), this.#ctx.config.plans[input.plan].dailyContactChecks),
    )
  }
}
