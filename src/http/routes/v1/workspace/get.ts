import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { WorkspaceSchema } from '../../../../schemas/workspace'
import type { ServiceContext } from '../../../../services/context'
import { createRouter } from '../../../router'

export const getWorkspaceRoute = createRoute({
  operationId: 'getWorkspace',
  method: 'get',
  path: '/v1/workspace',
  tags: ['Workspace'],
  summary: 'The workspace of the credential',
  description: 'Answers which workspace and plan a credential acts for; handy to check a new key.',
  security: bearerSecurity,
  responses: {
    200: jsonResponse(WorkspaceSchema, 'The workspace'),
    ...errorResponses([]),
  },
})

export const getWorkspaceEndpoint = (ctx: ServiceContext) =>
  createRouter().openapi(getWorkspaceRoute, (c) => {
    const workspace = c.get('workspace')
    const plan = c.get('plan')
    return c.json({ id: workspace.id, name: workspace.name, plan, limits: ctx.config.plans[plan] }, 200)
  })
