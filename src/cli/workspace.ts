import { planNames, type PlanName } from '../config'
import { createWorkspace, listWorkspaces } from '../services/workspaces'
import { commandContext, printTable } from './context'
import { UsageError } from './usage'

export async function workspaceCommand(args: string[], options: { plan?: string }): Promise<void> {
  const [verb, name] = args
  const ctx = await commandContext()
  if (verb === 'create') {
    if (!name) throw new UsageError('workspace create needs a name')
    const plan = (options.plan ?? 'free') as PlanName
    if (!planNames.includes(plan)) throw new UsageError(`--plan must be one of: ${planNames.join(', ')}`)
    const workspace = createWorkspace(ctx, { name, plan })
    console.log(`${workspace.id}  ${workspace.name}  ${workspace.plan}`)
    return
  }
  if (verb === 'list') {
    printTable(listWorkspaces(ctx).map(({ id, name, plan, createdAt }) => ({ id, name, plan, createdAt })))
    return
  }
  throw new UsageError('workspace takes: create <name> [--plan free|paid] | list')
}
