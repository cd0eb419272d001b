import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { SessionIdParam, SessionSchema } from '../../../../schemas/session'
import type { GatewayContext } from '../../../../services/context'
import { restartSession } from '../../../../services/sessions/restart'
import { createRouter } from '../../../router'

export const restartSessionRoute = createRoute({
  operationId: 'restartSession',
  method: 'post',
  path: '/v1/session/{id}/restart',
  tags: ['Sessions'],
  summary: 'Close and reopen a session’s connection',
  description:
    'Reconnects with the stored credentials at once: no logout, no QR; records and settings are kept. ' +
    'For a session stuck `connecting` or `connected` with nothing arriving. ' +
    'A session without credentials (pairing, expired, logged out, disconnected) is 409.',
  security: bearerSecurity,
  request: { params: SessionIdParam },
  responses: {
    200: jsonResponse(SessionSchema, 'The session, now connecting'),
    ...errorResponses(['not_found', 'session_not_connected']),
  },
})

export const restartSessionEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(restartSessionRoute, async (c) => {
    const session = await restartSession(ctx, {
      workspaceId: c.get('workspace').id,
      sessionId: c.req.valid('param').id,
    })
    return c.json(session, 200)
  })
