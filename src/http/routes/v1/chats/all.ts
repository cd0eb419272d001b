import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { ChatListResponse, ListChatsQuery } from '../../../../schemas/chat'
import type { GatewayContext } from '../../../../services/context'
import { listChats } from '../../../../services/chats/list'
import { createRouter } from '../../../router'
import { LOOKUP_ERRORS } from '../error-lists'

export const listChatsRoute = createRoute({
  operationId: 'listChats',
  method: 'get',
  path: '/v1/chat/all',
  tags: ['Chats'],
  summary: 'List a session’s chats, the most recent first',
  description:
    'One entry per conversation the session has message records for (1:1 chats by number, or by LID while the number is unknown, and groups), with its name, unread count and newest record; from the gateway’s own store, so an offline session lists too. Pass nextCursor as cursor for the next page.',
  security: bearerSecurity,
  request: { query: ListChatsQuery },
  responses: {
    200: jsonResponse(ChatListResponse, 'One page of chats'),
    ...errorResponses(LOOKUP_ERRORS),
  },
})

export const listChatsEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(listChatsRoute, (c) =>
    c.json(listChats(ctx, { workspaceId: c.get('workspace').id, input: c.req.valid('query') }), 200),
  )
