import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { ChatwootConfigSchema } from '../../../../schemas/chatwoot'
import { SessionIdParam } from '../../../../schemas/session'
import { chatwootView } from '../../../../services/chatwoot/view'
import type { GatewayContext } from '../../../../services/context'
import { createRouter } from '../../../router'
import { LOOKUP_ERRORS } from '../error-lists'

export const getChatwootRoute = createRoute({
  operationId: 'getSessionChatwoot',
  method: 'get',
  path: '/v1/session/{id}/chatwoot',
  tags: ['Chatwoot'],
  summary: 'The session’s Chatwoot integration and its state',
  description:
    'The token masked; state `error` with the last error while deliveries to Chatwoot fail. 404 when it has none.',
  security: bearerSecurity,
  request: { params: SessionIdParam },
  responses: {
    200: jsonResponse(ChatwootConfigSchema, 'The integration'),
    ...errorResponses(LOOKUP_ERRORS),
  },
})

export const getChatwootEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(getChatwootRoute, (c) =>
    c.json(chatwootView(ctx, c.get('workspace').id, c.req.valid('param').id), 200),
  )
