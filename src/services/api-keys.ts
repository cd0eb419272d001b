import { timingSafeEqual } from 'node:crypto'
import { and, asc, eq, isNull, lt, or } from 'drizzle-orm'
import { sha256Hex } from '../crypto'
import { apiKeys, workspaces, type Workspace } from '../db/schema'
import { notFound } from '../errors'
import { newApiKeyId, randomBase32 } from '../ids'
import type { CoreContext } from './context'
import { findWorkspace } from './workspaces'

const KEY_PREFIX = 'wag_'
const DISPLAY_PREFIX_LENGTH = 12
/** Writing last_used_at on every request would make every read a write; once a minute is enough. */
const LAST_USED_RESOLUTION_MS = 60_000

export interface IssuedApiKey {
  id: string
  workspaceId: string
  prefix: string
  /** The only time the key itself exists outside the caller's hands. */
  key: string
}

export function createApiKey(ctx: CoreContext, input: { workspace: string }): IssuedApiKey {
  const workspace = findWorkspace(ctx, input.workspace)
  const key = `${KEY_PREFIX}${randomBase32(40)}`
  const row = {
    id: newApiKeyId(),
    workspaceId: workspace.id,
    hash: sha256Hex(key),
    prefix: key.slice(0, DISPLAY_PREFIX_LENGTH),
    createdAt: ctx.clock.now(),
  }
  ctx.db.insert(apiKeys).values(row).run()
  return { id: row.id, workspaceId: workspace.id, prefix: row.prefix, key }
}

export function listApiKeys(ctx: CoreContext, input: { workspace?: string } = {}) {
  const workspaceId = input.workspace ? findWorkspace(ctx, input.workspace).id : undefined
  return ctx.db
    .select({
      id: apiKeys.id,
      workspace: workspaces.name,
      prefix: apiKeys.prefix,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
    .where(workspaceId ? eq(apiKeys.workspaceId, workspaceId) : undefined)
    .orderBy(asc(apiKeys.createdAt))
    .all()
}

export function revokeApiKey(ctx: CoreContext, input: { id: string }): void {
  const revoked = ctx.db
    .update(apiKeys)
    .set({ revokedAt: ctx.clock.now() })
    .where(and(eq(apiKeys.id, input.id), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id })
    .all()
  if (revoked.length > 0) return
  const exists = ctx.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.id, input.id)).get()
  if (!exists) throw notFound(`API key "${input.id}"`)
}

/** The workspace a presented key belongs to, or null for an unknown or revoked key. */
export function verifyApiKey(ctx: CoreContext, presented: string): Workspace | null {
  const hash = sha256Hex(presented)
  const found = ctx.db
    .select({ key: apiKeys, workspace: workspaces })
    .from(apiKeys)
    .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
    .where(eq(apiKeys.hash, hash))
    .get()
  // The lookup is by hash; compare again in constant time so no path depends on early exit.
  if (!found || !timingSafeEqual(Buffer.from(found.key.hash), Buffer.from(hash))) return null
  if (found.key.revokedAt) return null
  touchLastUsed(ctx, found.key.id)
  return found.workspace
}

function touchLastUsed(ctx: CoreContext, id: string): void {
  const now = ctx.clock.now()
  ctx.db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(apiKeys.id, id),
        or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(now.getTime() - LAST_USED_RESOLUTION_MS))),
      ),
    )
    .run()
}
