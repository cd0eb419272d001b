import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { SessionIdPathParam, SessionSchema } from '../../../../schemas/session'
import type { GatewayContext } from '../../../../services/context'
import { disconnectSession } from '../../../../services/sessions/disconnect'
import { createRouter } from '../../../router'

export const disconnectSessionRoute = createRoute({
  operationId: 'disconnectSession',
  method: 'delete',
  path: '/v1/session/disconnect/{session_id}',
  tags: ['Sessions'],
  summary: 'Unlink the device and close the session',
  description: 'Logs the linked device out of WhatsApp, closes the connection and wipes its credentials. Idempotent.',
  security: bearerSecurity,
  request: { params: SessionIdPathParam },
  responses: {
    200: jsonResponse(SessionSchema, 'The session, now disconnected'),
    ...errorResponses(['not_found']),
  },
})

export const disconnectSessionEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(disconnectSessionRoute, async (c) => {
    const session = await disconnectSession(ctx, {
      workspaceId: c.get('workspace').id,
      sessionId: c.req.valid('param').session_id,
    })
    return c.json(session, 200)
  })
