import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { ListMessagesQuery, MessageListResponse } from '../../../../schemas/message'
import type { GatewayContext } from '../../../../services/context'
import { listMessages } from '../../../../services/messages/records/list'
import { createRouter } from '../../../router'
import { LOOKUP_ERRORS } from '../error-lists'

export const listMessagesRoute = createRoute({
  operationId: 'listMessages',
  method: 'get',
  path: '/v1/message/all',
  tags: ['Messages'],
  summary: 'List a session’s message records, newest first',
  description:
    'Sent and received messages, filtered by chat and direction; pass nextCursor as cursor for the next page.',
  security: bearerSecurity,
  request: { query: ListMessagesQuery },
  responses: {
    200: jsonResponse(MessageListResponse, 'One page of records'),
    ...errorResponses(LOOKUP_ERRORS),
  },
})

export const listMessagesEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(listMessagesRoute, (c) =>
    c.json(listMessages(ctx, { workspaceId: c.get('workspace').id, input: c.req.valid('query') }), 200),
  )
