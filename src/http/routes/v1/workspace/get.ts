import { Hono } from 'hono'
import type { RouteSpec } from '../../../../openapi/route'
import { WorkspaceSchema } from '../../../../schemas/workspace'
import type { ServiceContext } from '../../../../services/context'
import type { AppEnv } from '../../../env'

export const getWorkspaceSpec: RouteSpec = {
  method: 'get',
  path: '/v1/workspace',
  summary: 'The workspace of the credential',
  description: 'Answers which workspace and plan a credential acts for; handy to check a new key.',
  tag: 'Workspace',
  response: { description: 'The workspace', schema: WorkspaceSchema },
}

export const getWorkspace = (ctx: ServiceContext) =>
  new Hono<AppEnv>().get('/v1/workspace', (c) => {
    const workspace = c.get('workspace')
    const plan = c.get('plan')
    return c.json({ id: workspace.id, name: workspace.name, plan, limits: ctx.config.plans[plan] })
  })
