import { timingSafeEqual } from 'node:crypto'
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm'
import { sha256Hex } from '../crypto'
import type { GatewayDatabase } from '../db/database'
import { apiKeys, authVersion, workspaces, type Workspace } from '../db/schema'
import type { Clock } from '../clock'
import type { Logger } from '../logger'
import { prepared, type StatementCache } from '../perf/prepared'
import type { ReadMemo } from '../perf/read-memo'

/** Writing last_used_at on every request would make every read a write; once a minute is enough. */
export const LAST_USED_RESOLUTION_MS = 60_000
/** Pending last-use stamps are written this long after the first of them, off the request path. */
const TOUCH_FLUSH_MS = 1_000
/** Past this many keys the cache starts over (a bound, not an LRU: real deployments have few keys). */
const MAX_CACHED_KEYS = 10_000

/**
 * Which workspace an API key (or a JWT's workspace name) stands for, remembered in memory by
 * one gateway. Every lookup first reads `auth_version` (one prepared point read): triggers bump
 * it when any process revokes a key or changes a workspace, and a changed version empties the
 * cache, so a revoked key is refused on the very next request. `last_used_at` is stamped at most
 * once a minute per key, in a batch written after the request.
 */
export interface CredentialCache {
  /** The workspace of a valid, unrevoked key; null otherwise. `hash` is `sha256Hex(presented)` when the caller has it already. */
  verifyApiKey(presented: string, hash?: string): Workspace | null
  /**
   * Whether the key of `hash` is still valid (not revoked, its workspace still there), without
   * counting a use: what a long answer (an event stream) asks on each turn, so a key revoked by
   * any process ends what was opened with it.
   */
  isKeyValid(hash: string): boolean
  /** A workspace by name, or undefined (JWT credentials name theirs). */
  workspaceNamed(name: string): Workspace | undefined
  /** Writes pending last-use stamps now (on stop). */
  flush(): void
}

const versionQuery = (db: GatewayDatabase) =>
  db.select({ version: authVersion.version }).from(authVersion).where(eq(authVersion.id, 1)).prepare()

const keyByHash = (db: GatewayDatabase) =>
  db
    .select({
      id: apiKeys.id,
      hash: apiKeys.hash,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
      workspace: workspaces,
    })
    .from(apiKeys)
    .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
    .where(eq(apiKeys.hash, sql.placeholder('hash')))
    .prepare()

const workspaceByName = (db: GatewayDatabase) =>
  db
    .select()
    .from(workspaces)
    .where(eq(workspaces.name, sql.placeholder('name')))
    .prepare()

const touchKey = (db: GatewayDatabase) =>
  db
    .update(apiKeys)
    .set({ lastUsedAt: sql`${sql.placeholder('now')}` })
    .where(
      and(
        eq(apiKeys.id, sql.placeholder('id')),
        or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql.placeholder('staleBefore'))),
      ),
    )
    .prepare()

interface CachedKey {
  id: string
  workspace: Workspace
  /** When this gateway last stamped (or read) the key's last use, ms. */
  lastUsedMs: number
}

export function createCredentialCache(ctx: {
  db: GatewayDatabase
  clock: Clock
  logger: Logger
  reads: ReadMemo
  statements: StatementCache
}): CredentialCache {
  const { db, clock, reads } = ctx

  let cachedVersion: number | undefined
  const keys = new Map<string, CachedKey>()
  const workspacesByName = new Map<string, Workspace>()
  const pendingTouches = new Map<string, number>()
  let flushTimer: NodeJS.Timeout | undefined

  /** Empties the cache when any credential may have changed since it was filled. */
  function validate(): void {
    const current = reads.read('auth_version', () => prepared(ctx, versionQuery).get()?.version ?? 0)
    if (current === cachedVersion) return
    cachedVersion = current
    keys.clear()
    workspacesByName.clear()
  }

  function flush(): void {
    clearTimeout(flushTimer)
    flushTimer = undefined
    if (pendingTouches.size === 0) return
    const touches = [...pendingTouches]
    pendingTouches.clear()
    try {
      db.transaction(() => {
        for (const [id, now] of touches)
          prepared(ctx, touchKey).run({ id, now, staleBefore: now - LAST_USED_RESOLUTION_MS })
      })
    } catch (error) {
      ctx.logger.warn({ err: error }, 'could not record API key use')
    }
  }

  function noteUse(entry: CachedKey): void {
    const now = clock.now().getTime()
    if (now - entry.lastUsedMs < LAST_USED_RESOLUTION_MS) return
    entry.lastUsedMs = now
    pendingTouches.set(entry.id, now)
    flushTimer ??= setTimeout(flush, TOUCH_FLUSH_MS).unref()
  }

  function load(hash: string): CachedKey | null {
    const found = prepared(ctx, keyByHash).get({ hash })
    // The lookup is by hash; compare again in constant time so no path depends on early exit.
    if (!found || !timingSafeEqual(Buffer.from(found.hash), Buffer.from(hash)) || found.revokedAt) return null
    if (keys.size >= MAX_CACHED_KEYS) keys.clear()
    const entry = { id: found.id, workspace: found.workspace, lastUsedMs: found.lastUsedAt?.getTime() ?? -Infinity }
    keys.set(hash, entry)
    return entry
  }

  return {
    verifyApiKey(presented, hash = sha256Hex(presented)) {
      validate()
      const entry = keys.get(hash) ?? load(hash)
      if (!entry) return null
      noteUse(entry)
      return entry.workspace
    },

    isKeyValid(hash) {
      validate()
      return (keys.get(hash) ?? load(hash)) !== null
    },

    workspaceNamed(name) {
      validate()
      let workspace = workspacesByName.get(name)
      if (!workspace) {
        workspace = prepared(ctx, workspaceByName).get({ name })
        if (!workspace) return undefined
        if (workspacesByName.size >= MAX_CACHED_KEYS) workspacesByName.clear()
        workspacesByName.set(name, workspace)
      }
      return workspace
    },

    flush,
  }
}
