import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { SessionIdParam, UpdateSessionBody, UpdateSessionResponse } from '../../../../schemas/session'
import type { GatewayContext } from '../../../../services/context'
import { updateSession } from '../../../../services/sessions/update'
import { createRouter } from '../../../router'

export const updateSessionRoute = createRoute({
  operationId: 'updateSession',
  method: 'put',
  path: '/v1/session/update/{id}',
  tags: ['Sessions'],
  summary: 'Change a session’s name, webhook or call handling',
  security: bearerSecurity,
  request: { params: SessionIdParam, body: jsonBody(UpdateSessionBody) },
  responses: {
    200: jsonResponse(UpdateSessionResponse, 'The updated session'),
    ...errorResponses(['validation_error', 'plan_required', 'not_found', 'session_name_taken']),
  },
})

export const updateSessionEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(updateSessionRoute, async (c) => {
    const session = await updateSession(ctx, {
      workspaceId: c.get('workspace').id,
      plan: c.get('plan'),
      sessionId: c.req.valid('param').id,
      input: c.req.valid('json'),
    })
    return c.json(session, 200)
  })
