import { createRoute } from '@hono/zod-openapi'
import { adminSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { AdminWorkspaceSchema, SetPlanBody, WorkspaceParam } from '../../../../schemas/admin'
import { setWorkspacePlan } from '../../../../services/admin-workspaces'
import type { ServiceContext } from '../../../../services/context'
import { createRouter } from '../../../router'
import { workspaceView } from './views'
import { LOOKUP_ERRORS } from '../error-lists'

export const setWorkspacePlanRoute = createRoute({
  operationId: 'adminSetWorkspacePlan',
  method: 'put',
  path: '/v1/admin/workspaces/{workspace}/plan',
  tags: ['Admin'],
  summary: 'Move a workspace to another plan (as `workspace plan` on the CLI)',
  security: adminSecurity,
  request: { params: WorkspaceParam, body: jsonBody(SetPlanBody) },
  responses: {
    200: jsonResponse(AdminWorkspaceSchema, 'The workspace on its new plan'),
    ...errorResponses(LOOKUP_ERRORS),
  },
})

export const setWorkspacePlanEndpoint = (ctx: ServiceContext) =>
  createRouter().openapi(setWorkspacePlanRoute, (c) => {
    const workspace = setWorkspacePlan(ctx, {
      workspace: c.req.valid('param').workspace,
      plan: c.req.valid('json').plan,
    })
    return c.json(workspaceView(workspace), 200)
  })
