import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { LabelListResponse, LabelSessionQuery } from '../../../../schemas/label'
import type { GatewayContext } from '../../../../services/context'
import { listLabels } from '../../../../services/labels/list'
import { createRouter } from '../../../router'
import { LOOKUP_ERRORS } from '../error-lists'

export const listLabelsRoute = createRoute({
  operationId: 'listLabels',
  method: 'get',
  path: '/v1/label/all',
  tags: ['Labels'],
  summary: 'List the account’s WhatsApp Business labels',
  description:
    'Each label with the chats and messages carrying it, as app-state sync last reported them (changes made on the phone included), from the gateway’s own store: an offline session lists too. A personal account has none.',
  security: bearerSecurity,
  request: { query: LabelSessionQuery },
  responses: {
    200: jsonResponse(LabelListResponse, 'The labels'),
    ...errorResponses(LOOKUP_ERRORS),
  },
})

export const listLabelsEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(listLabelsRoute, (c) =>
    c.json(listLabels(ctx, { workspaceId: c.get('workspace').id, sessionId: c.req.valid('query').sessionId }), 200),
  )
