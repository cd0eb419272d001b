import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { CreatedWebhookSchema, CreateWorkspaceWebhookBody } from '../../../../schemas/webhook-subscription'
import type { GatewayContext } from '../../../../services/context'
import { createWebhook } from '../../../../services/webhooks/subscriptions/create'
import { createRouter } from '../../../router'

export const createWorkspaceWebhookRoute = createRoute({
  operationId: 'createWorkspaceWebhook',
  method: 'post',
  path: '/v1/webhooks',
  tags: ['Webhooks'],
  summary: 'Add a webhook that gets the events of every session of the workspace',
  description:
    'Every session’s events, present and future sessions alike, each session’s in order; its own URL, event filter and secret (answered only here). At most 10; the URL passes the same checks as webhookUrl.',
  security: bearerSecurity,
  request: { body: jsonBody(CreateWorkspaceWebhookBody) },
  responses: {
    200: jsonResponse(CreatedWebhookSchema, 'The webhook, with its secret'),
    ...errorResponses(['validation_error', 'plan_required', 'webhook_limit_reached']),
  },
})

export const createWorkspaceWebhookEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(createWorkspaceWebhookRoute, async (c) => {
    const workspaceId = c.get('workspace').id
    return c.json(
      await createWebhook(ctx, {
        scope: { workspaceId, sessionId: null },
        plan: c.get('plan'),
        input: c.req.valid('json'),
      }),
      200,
    )
  })
