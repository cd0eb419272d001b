import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { ChatReadBody, ChatReadResponse } from '../../../../schemas/chat'
import type { GatewayContext } from '../../../../services/context'
import { markChatRead } from '../../../../services/chats/read'
import { createRouter } from '../../../router'
import { SESSION_CALL_ERRORS } from '../error-lists'

export const chatReadRoute = createRoute({
  operationId: 'markChatRead',
  method: 'post',
  path: '/v1/chat/read',
  tags: ['Chats'],
  summary: 'Mark a chat’s messages read',
  description:
    'Sends read receipts (blue ticks; `read-self` when the account hides read receipts) for the named inbound messages of the chat, or for every unread one when `messageIds` is omitted, and marks those records `read` (each with a `message.status` event). An id that is not an inbound message of this chat of the session is 404 and nothing is sent.',
  security: bearerSecurity,
  request: { body: jsonBody(ChatReadBody) },
  responses: {
    200: jsonResponse(ChatReadResponse, 'The messages receipts were sent for, and how many unread are left'),
    ...errorResponses(SESSION_CALL_ERRORS),
  },
})

export const chatReadEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(chatReadRoute, async (c) =>
    c.json(await markChatRead(ctx, { workspaceId: c.get('workspace').id, input: c.req.valid('json') }), 200),
  )
