import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { ChannelFollowResponse, ChannelIdParam, FollowChannelBody } from '../../../../schemas/channel'
import { setChannelFollowed } from '../../../../services/channels/follow'
import type { GatewayContext } from '../../../../services/context'
import { createRouter } from '../../../router'
import { GROUP_ADMIN_ERRORS } from '../error-lists'

export const followChannelRoute = createRoute({
  operationId: 'followChannel',
  method: 'post',
  path: '/v1/channel/{channelId}/follow',
  tags: ['Channels'],
  summary: 'Follow a channel',
  description:
    'The account follows the channel: its new posts arrive as channel.message events. Idempotent. 404 when WhatsApp knows no such channel.',
  security: bearerSecurity,
  request: { params: ChannelIdParam, body: jsonBody(FollowChannelBody) },
  responses: {
    200: jsonResponse(ChannelFollowResponse, 'Followed'),
    ...errorResponses(GROUP_ADMIN_ERRORS),
  },
})

export const followChannelEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(followChannelRoute, async (c) =>
    c.json(
      await setChannelFollowed(ctx, {
        workspaceId: c.get('workspace').id,
        sessionId: c.req.valid('json').sessionId,
        channelId: c.req.valid('param').channelId,
        follow: true,
      }),
      200,
    ),
  )
