import { eq } from 'drizzle-orm'
import type { PlanName } from '../config'
import { workspaces, type Workspace } from '../db/schema'
import type { CoreContext } from './context'
import { findWorkspace } from './workspaces'

/** Moves a workspace (by id or name) to another plan; the new limits apply to its next request. */
export function setWorkspacePlan(ctx: CoreContext, input: { workspace: string; plan: PlanName }): Workspace {
  const workspace = findWorkspace(ctx, input.workspace)
  return ctx.db
    .update(workspaces)
    .set({ plan: input.plan, updatedAt: ctx.clock.now() })
    .where(eq(workspaces.id, workspace.id))
    .returning()
    .get()!
}
