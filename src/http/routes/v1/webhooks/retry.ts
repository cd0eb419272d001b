import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { DeliveryIdParam, DeliverySchema, RetryDeliveryQuery } from '../../../../schemas/webhook'
import type { GatewayContext } from '../../../../services/context'
import { retryDelivery } from '../../../../services/webhooks/resend'
import { createRouter } from '../../../router'
import { LOOKUP_ERRORS } from '../error-lists'

export const retryDeliveryRoute = createRoute({
  operationId: 'retryWebhookDelivery',
  method: 'post',
  path: '/v1/webhooks/deliveries/{deliveryId}/retry',
  tags: ['Webhooks'],
  summary: 'Send a delivery again now, with a fresh retry window',
  description: 'Works on failed, delivered and pending deliveries; the event keeps its webhook-id.',
  security: bearerSecurity,
  request: { params: DeliveryIdParam, query: RetryDeliveryQuery },
  responses: {
    200: jsonResponse(DeliverySchema, 'The delivery, pending again'),
    ...errorResponses(LOOKUP_ERRORS),
  },
})

export const retryDeliveryEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(retryDeliveryRoute, (c) =>
    c.json(
      retryDelivery(ctx, {
        workspaceId: c.get('workspace').id,
        deliveryId: c.req.valid('param').deliveryId,
        sessionId: c.req.valid('query').sessionId,
      }),
      200,
    ),
  )
