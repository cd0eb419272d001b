import { createRoute } from '@hono/zod-openapi'
import { adminSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { AdminWorkspaceSchema, CreateWorkspaceBody } from '../../../../schemas/admin'
import type { ServiceContext } from '../../../../services/context'
import { createWorkspace } from '../../../../services/workspaces'
import { createRouter } from '../../../router'
import { workspaceView } from './views'

export const createWorkspaceRoute = createRoute({
  operationId: 'adminCreateWorkspace',
  method: 'post',
  path: '/v1/admin/workspaces',
  tags: ['Admin'],
  summary: 'Create a workspace (as `workspace create` on the CLI)',
  security: adminSecurity,
  request: { body: jsonBody(CreateWorkspaceBody) },
  responses: {
    201: jsonResponse(AdminWorkspaceSchema, 'The new workspace'),
    ...errorResponses(['validation_error']),
  },
})

export const createWorkspaceEndpoint = (ctx: ServiceContext) =>
  createRouter().openapi(createWorkspaceRoute, (c) =>
    c.json(workspaceView(createWorkspace(ctx, c.req.valid('json'))), 201),
  )
