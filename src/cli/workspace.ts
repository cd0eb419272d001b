import { planNames, type PlanName } from '../config'
import { setWorkspacePlan } from '../services/admin-workspaces'
import { createWorkspace, listWorkspaces } from '../services/workspaces'
import { commandContext, printTable } from './context'
import { printable } from './printable'
import { UsageError } from './usage'

export async function workspaceCommand(args: string[], options: { plan?: string }): Promise<void> {
  const [verb, name, planArg] = args
  const ctx = await commandContext()
  if (verb === 'create') {
    if (!name) throw new UsageError('workspace create needs a name')
    const plan = (options.plan ?? 'free') as PlanName
    if (!planNames.includes(plan)) throw new UsageError(`--plan must be one of: ${planNames.join(', ')}`)
    const workspace = createWorkspace(ctx, { name, plan })
    console.log(`${workspace.id}  ${printable(workspace.name)}  ${workspace.plan}`)
    return
  }
  if (verb === 'list') {
    printTable(listWorkspaces(ctx).map(({ id, name, plan, createdAt }) => ({ id, name, plan, createdAt })))
    return
  }
  if (verb === 'plan') {
    const plan = (planArg ?? options.plan) as PlanName
    if (!name || !planNames.includes(plan))
      throw new UsageError(`workspace plan needs a name and one of: ${planNames.join(', ')}`)
    const workspace = setWorkspacePlan(ctx, { workspace: name, plan })
    console.log(`${workspace.id}  ${printable(workspace.name)}  ${workspace.plan}`)
    return
  }
  throw new UsageError('workspace takes: create <name> [--plan free|paid] | list | plan <name> free|paid')
}
