import { asc, eq, or } from 'drizzle-orm'
import type { PlanName } from '../config'
import { workspaces, type Workspace } from '../db/schema'
import { GatewayError, notFound } from '../errors'
import { newWorkspaceId } from '../ids'
import { workspaceName } from '../schemas/workspace-name'
import { validationError } from './validation-error'
import type { CoreContext } from './context'

/** The CLI and the admin API both create through here: the name's rules hold whoever asks. */
export function createWorkspace(ctx: CoreContext, input: { name: string; plan?: PlanName }): Workspace {
  const parsed = workspaceName.safeParse(input.name)
  if (!parsed.success)
    throw validationError(parsed.error.issues.map((issue) => ({ path: 'name', message: issue.message })))
  const name = parsed.data
  const existing = ctx.db.select().from(workspaces).where(eq(workspaces.name, name)).get()
  if (existing) throw new GatewayError('validation_error', `A workspace named "${name}" already exists`)
  const now = ctx.clock.now()
  return ctx.db
    .insert(workspaces)
    .values({ id: newWorkspaceId(), name, plan: input.plan ?? 'free', createdAt: now, updatedAt: now })
    .returning()
    .get()
}

export function listWorkspaces(ctx: CoreContext): Workspace[] {
  return ctx.db.select().from(workspaces).orderBy(asc(workspaces.createdAt)).all()
}

/** Looks a workspace up by id or by name (operators type names). */
export function findWorkspace(ctx: CoreContext, idOrName: string): Workspace {
  const found = ctx.db
    .select()
    .from(workspaces)
    .where(or(eq(workspaces.id, idOrName), eq(workspaces.name, idOrName)))
    .get()
  if (!found) throw notFound(`Workspace "${idOrName}"`)
  return found
}

/**
 * The workspace a verified JWT names, created on first sight: with JWTs an outside system
 * issues the credentials, so it also decides which workspaces exist.
 */
export function ensureWorkspace(ctx: CoreContext, name: string): Workspace {
  const byName = () => ctx.db.select().from(workspaces).where(eq(workspaces.name, name)).get()
  // Every JWT request comes through here: read first, so only a new workspace takes the write lock.
  const existing = byName()
  if (existing) return existing
  const now = ctx.clock.now()
  ctx.db
    .insert(workspaces)
    .values({ id: newWorkspaceId(), name, plan: 'free', createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: workspaces.name })
    .run()
  return byName()!
}
