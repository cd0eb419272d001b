import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { DeletedSessionResponse, SessionIdParam } from '../../../../schemas/session'
import type { GatewayContext } from '../../../../services/context'
import { deleteSession } from '../../../../services/sessions/delete'
import { createRouter } from '../../../router'
import { LOOKUP_ERRORS } from '../error-lists'

export const deleteSessionRoute = createRoute({
  operationId: 'deleteSession',
  method: 'delete',
  path: '/v1/session/{id}',
  tags: ['Sessions'],
  summary: 'Delete a session that is not live, with everything kept for it',
  description:
    'Removes an expired, logged-out or disconnected session with its message records, received files, events, deliveries, ' +
    'webhooks, Chatwoot integration, group store, credentials and Idempotency-Keys, and answers how many of each went. ' +
    'A pending, connecting or connected session is 409 `session_state_conflict`: disconnect it first. Not undoable; ' +
    'a second DELETE is 404.',
  security: bearerSecurity,
  request: { params: SessionIdParam },
  responses: {
    200: jsonResponse(DeletedSessionResponse, 'What was removed'),
    ...errorResponses([...LOOKUP_ERRORS, 'session_state_conflict']),
  },
})

export const deleteSessionEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(deleteSessionRoute, async (c) => {
    const deleted = await deleteSession(ctx, { workspaceId: c.get('workspace').id, sessionId: c.req.valid('param').id })
    return c.json(deleted, 200)
  })
