import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { ChannelInfoQuery, ChannelResponse } from '../../../../schemas/channel'
import { channelInfo } from '../../../../services/channels/info'
import type { GatewayContext } from '../../../../services/context'
import { createRouter } from '../../../router'
import { SESSION_CALL_ERRORS } from '../error-lists'

export const channelInfoRoute = createRoute({
  operationId: 'getChannelInfo',
  method: 'get',
  path: '/v1/channel/info',
  tags: ['Channels'],
  summary: 'A channel, by id or link',
  description:
    'What WhatsApp tells of a channel (name, description, link, subscribers, the account’s role), named by `id` or by `link` (one of them). 404 when WhatsApp knows no such channel.',
  security: bearerSecurity,
  request: { query: ChannelInfoQuery },
  responses: {
    200: jsonResponse(ChannelResponse, 'The channel'),
    ...errorResponses(SESSION_CALL_ERRORS),
  },
})

export const channelInfoEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(channelInfoRoute, async (c) => {
    const { sessionId, id, link } = c.req.valid('query')
    const key = id !== undefined ? { jid: id } : { invite: link! }
    return c.json(await channelInfo(ctx, { workspaceId: c.get('workspace').id, sessionId, key }), 200)
  })
