import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { ChannelListResponse, ChannelSessionQuery } from '../../../../schemas/channel'
import { listChannels } from '../../../../services/channels/list'
import type { GatewayContext } from '../../../../services/context'
import { createRouter } from '../../../router'
import { SESSION_CALL_ERRORS } from '../error-lists'

export const listChannelsRoute = createRoute({
  operationId: 'listChannels',
  method: 'get',
  path: '/v1/channel/all',
  tags: ['Channels'],
  summary: 'The channels the account follows or runs',
  description:
    'Every WhatsApp Channel the account follows, owns or admins, with its role in each; asked of WhatsApp at each call, so one followed on the phone shows at once.',
  security: bearerSecurity,
  request: { query: ChannelSessionQuery },
  responses: {
    200: jsonResponse(ChannelListResponse, 'The channels'),
    ...errorResponses(SESSION_CALL_ERRORS),
  },
})

export const listChannelsEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(listChannelsRoute, async (c) =>
    c.json(
      await listChannels(ctx, { workspaceId: c.get('workspace').id, sessionId: c.req.valid('query').sessionId }),
      200,
    ),
  )
