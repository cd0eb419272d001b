import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { WebhookListResponse } from '../../../../schemas/webhook-subscription'
import type { GatewayContext } from '../../../../services/context'
import { listWebhooks } from '../../../../services/webhooks/subscriptions/list'
import { createRouter } from '../../../router'

export const listWorkspaceWebhooksRoute = createRoute({
  operationId: 'listWorkspaceWebhooks',
  method: 'get',
  path: '/v1/webhooks',
  tags: ['Webhooks'],
  summary: 'The workspace’s own webhooks',
  description: 'Oldest first; secrets are never shown again.',
  security: bearerSecurity,
  responses: {
    200: jsonResponse(WebhookListResponse, 'The webhooks'),
    ...errorResponses(['validation_error']),
  },
})

export const listWorkspaceWebhooksEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(listWorkspaceWebhooksRoute, (c) => {
    const workspaceId = c.get('workspace').id
    return c.json(listWebhooks(ctx, { workspaceId, sessionId: null }), 200)
  })
