import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { DeletedChatwootResponse } from '../../../../schemas/chatwoot'
import { SessionIdParam } from '../../../../schemas/session'
import { removeChatwoot } from '../../../../services/chatwoot/view'
import type { GatewayContext } from '../../../../services/context'
import { createRouter } from '../../../router'
import { LOOKUP_ERRORS } from '../error-lists'

export const deleteChatwootRoute = createRoute({
  operationId: 'deleteSessionChatwoot',
  method: 'delete',
  path: '/v1/session/{id}/chatwoot',
  tags: ['Chatwoot'],
  summary: 'Stop mirroring the session into Chatwoot',
  description:
    'Its pending deliveries and the gateway’s mappings go; Chatwoot keeps the inbox, contacts and conversations. Callbacks to its URL are refused from then on.',
  security: bearerSecurity,
  request: { params: SessionIdParam },
  responses: {
    200: jsonResponse(DeletedChatwootResponse, 'It is off'),
    ...errorResponses(LOOKUP_ERRORS),
  },
})

export const deleteChatwootEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(deleteChatwootRoute, (c) =>
    c.json(removeChatwoot(ctx, c.get('workspace').id, c.req.valid('param').id), 200),
  )
