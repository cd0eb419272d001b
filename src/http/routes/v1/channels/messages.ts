import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { ChannelIdParam, ChannelMessagesQuery, ChannelMessagesResponse } from '../../../../schemas/channel'
import { channelMessages } from '../../../../services/channels/messages'
import type { GatewayContext } from '../../../../services/context'
import { createRouter } from '../../../router'
import { SESSION_CALL_ERRORS } from '../error-lists'

export const channelMessagesRoute = createRoute({
  operationId: 'listChannelMessages',
  method: 'get',
  path: '/v1/channel/{channelId}/messages',
  tags: ['Channels'],
  summary: 'A channel’s latest posts',
  description:
    'Read from WhatsApp at each call, oldest first, at most `limit` (1 to 100). Posts are not stored by the gateway; new ones of followed channels arrive as channel.message events.',
  security: bearerSecurity,
  request: { params: ChannelIdParam, query: ChannelMessagesQuery },
  responses: {
    200: jsonResponse(ChannelMessagesResponse, 'The posts'),
    ...errorResponses(SESSION_CALL_ERRORS),
  },
})

export const channelMessagesEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(channelMessagesRoute, async (c) => {
    const { sessionId, limit } = c.req.valid('query')
    return c.json(
      await channelMessages(ctx, {
        workspaceId: c.get('workspace').id,
        sessionId,
        channelId: c.req.valid('param').channelId,
        limit,
      }),
      200,
    )
  })
