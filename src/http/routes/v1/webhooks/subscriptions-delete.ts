import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { DeletedWebhookResponse, WorkspaceWebhookParams } from '../../../../schemas/webhook-subscription'
import type { GatewayContext } from '../../../../services/context'
import { deleteWebhook } from '../../../../services/webhooks/subscriptions/remove'
import { createRouter } from '../../../router'
import { LOOKUP_ERRORS } from '../error-lists'

export const deleteWorkspaceWebhookRoute = createRoute({
  operationId: 'deleteWorkspaceWebhook',
  method: 'delete',
  path: '/v1/webhooks/{webhookId}',
  tags: ['Webhooks'],
  summary: 'Remove a webhook',
  description: 'Its pending deliveries are dropped and its entries leave the delivery log; nothing more is sent to it.',
  security: bearerSecurity,
  request: { params: WorkspaceWebhookParams },
  responses: {
    200: jsonResponse(DeletedWebhookResponse, 'It is gone'),
    ...errorResponses(LOOKUP_ERRORS),
  },
})

export const deleteWorkspaceWebhookEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(deleteWorkspaceWebhookRoute, (c) => {
    const workspaceId = c.get('workspace').id
    const param = c.req.valid('param')
    return c.json(deleteWebhook(ctx, { scope: { workspaceId, sessionId: null }, webhookId: param.webhookId }), 200)
  })
