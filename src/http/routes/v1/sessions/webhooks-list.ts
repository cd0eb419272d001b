import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { WebhookListResponse } from '../../../../schemas/webhook-subscription'
import { SessionIdParam } from '../../../../schemas/session'
import type { GatewayContext } from '../../../../services/context'
import { listWebhooks } from '../../../../services/webhooks/subscriptions/list'
import { createRouter } from '../../../router'
import { LOOKUP_ERRORS } from '../error-lists'

export const listSessionWebhooksRoute = createRoute({
  operationId: 'listSessionWebhooks',
  method: 'get',
  path: '/v1/session/{id}/webhooks',
  tags: ['Webhooks'],
  summary: 'The session’s webhooks besides its webhookUrl',
  description: 'Oldest first; secrets are never shown again.',
  security: bearerSecurity,
  request: { params: SessionIdParam },
  responses: {
    200: jsonResponse(WebhookListResponse, 'The webhooks'),
    ...errorResponses(LOOKUP_ERRORS),
  },
})

export const listSessionWebhooksEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(listSessionWebhooksRoute, (c) => {
    const workspaceId = c.get('workspace').id
    return c.json(listWebhooks(ctx, { workspaceId, sessionId: c.req.valid('param').id }), 200)
  })
