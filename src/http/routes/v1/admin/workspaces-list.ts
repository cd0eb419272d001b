import { createRoute } from '@hono/zod-openapi'
import { adminSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { AdminWorkspaceList } from '../../../../schemas/admin'
import type { ServiceContext } from '../../../../services/context'
import { listWorkspaces } from '../../../../services/workspaces'
import { createRouter } from '../../../router'
import { workspaceView } from './views'

export const listWorkspacesRoute = createRoute({
  operationId: 'adminListWorkspaces',
  method: 'get',
  path: '/v1/admin/workspaces',
  tags: ['Admin'],
  summary: 'Every workspace, oldest first',
  security: adminSecurity,
  responses: {
    200: jsonResponse(AdminWorkspaceList, 'The workspaces'),
    ...errorResponses([]),
  },
})

export const listWorkspacesEndpoint = (ctx: ServiceContext) =>
  createRouter().openapi(listWorkspacesRoute, (c) =>
    c.json({ workspaces: listWorkspaces(ctx).map(workspaceView) }, 200),
  )
