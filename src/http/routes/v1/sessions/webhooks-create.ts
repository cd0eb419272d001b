import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { CreatedWebhookSchema, CreateSessionWebhookBody } from '../../../../schemas/webhook-subscription'
import { SessionIdParam } from '../../../../schemas/session'
import type { GatewayContext } from '../../../../services/context'
import { createWebhook } from '../../../../services/webhooks/subscriptions/create'
import { createRouter } from '../../../router'

export const createSessionWebhookRoute = createRoute({
  operationId: 'createSessionWebhook',
  method: 'post',
  path: '/v1/session/{id}/webhooks',
  tags: ['Webhooks'],
  summary: 'Add another webhook to the session',
  description:
    'Besides the session’s webhookUrl: its own URL, event filter and secret (answered only here), its own delivery stream, log, retries and replay. At most 10; the URL passes the same checks as webhookUrl.',
  security: bearerSecurity,
  request: { params: SessionIdParam, body: jsonBody(CreateSessionWebhookBody) },
  responses: {
    200: jsonResponse(CreatedWebhookSchema, 'The webhook, with its secret'),
    ...errorResponses(['validation_error', 'plan_required', 'not_found', 'webhook_limit_reached']),
  },
})

export const createSessionWebhookEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(createSessionWebhookRoute, async (c) => {
    const workspaceId = c.get('workspace').id
    return c.json(
      await createWebhook(ctx, {
        scope: { workspaceId, sessionId: c.req.valid('param').id },
        plan: c.get('plan'),
        input: c.req.valid('json'),
      }),
      200,
    )
  })
