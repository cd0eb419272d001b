import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import {
  UpdatedWebhookSchema,
  UpdateWorkspaceWebhookBody,
  WorkspaceWebhookParams,
} from '../../../../schemas/webhook-subscription'
import type { GatewayContext } from '../../../../services/context'
import { updateWebhook } from '../../../../services/webhooks/subscriptions/update'
import { createRouter } from '../../../router'

export const updateWorkspaceWebhookRoute = createRoute({
  operationId: 'updateWorkspaceWebhook',
  method: 'put',
  path: '/v1/webhooks/{webhookId}',
  tags: ['Webhooks'],
  summary: 'Change a webhook’s URL, events or description, or rotate its secret',
  description:
    'Applies from its next delivery on. rotateSecret: the new secret is answered once, and deliveries carry signatures with the old and the new one for 24 h.',
  security: bearerSecurity,
  request: { params: WorkspaceWebhookParams, body: jsonBody(UpdateWorkspaceWebhookBody) },
  responses: {
    200: jsonResponse(UpdatedWebhookSchema, 'The webhook'),
    ...errorResponses(['validation_error', 'plan_required', 'not_found']),
  },
})

export const updateWorkspaceWebhookEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(updateWorkspaceWebhookRoute, async (c) => {
    const workspaceId = c.get('workspace').id
    const param = c.req.valid('param')
    return c.json(
      await updateWebhook(ctx, {
        scope: { workspaceId, sessionId: null },
        plan: c.get('plan'),
        webhookId: param.webhookId,
        input: c.req.valid('json'),
      }),
      200,
    )
  })
