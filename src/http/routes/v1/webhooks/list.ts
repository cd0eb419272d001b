import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { DeliveryListResponse, ListDeliveriesQuery } from '../../../../schemas/webhook'
import type { GatewayContext } from '../../../../services/context'
import { listDeliveries } from '../../../../services/webhooks/deliveries'
import { createRouter } from '../../../router'
import { LOOKUP_ERRORS } from '../error-lists'

export const listDeliveriesRoute = createRoute({
  operationId: 'listWebhookDeliveries',
  method: 'get',
  path: '/v1/webhooks/deliveries',
  tags: ['Webhooks'],
  summary: 'The delivery log of the workspace’s webhook events, newest first',
  description:
    'Filter by session and status; pass nextCursor as cursor for the next page. Delivered and failed entries are kept for WEBHOOK_RETENTION_HOURS.',
  security: bearerSecurity,
  request: { query: ListDeliveriesQuery },
  responses: {
    200: jsonResponse(DeliveryListResponse, 'One page of deliveries'),
    ...errorResponses(LOOKUP_ERRORS),
  },
})

export const listDeliveriesEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(listDeliveriesRoute, (c) =>
    c.json(listDeliveries(ctx, { workspaceId: c.get('workspace').id, input: c.req.valid('query') }), 200),
  )
