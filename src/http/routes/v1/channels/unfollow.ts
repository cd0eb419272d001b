import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { ChannelFollowResponse, ChannelIdParam, UnfollowChannelBody } from '../../../../schemas/channel'
import { setChannelFollowed } from '../../../../services/channels/follow'
import type { GatewayContext } from '../../../../services/context'
import { createRouter } from '../../../router'
import { GROUP_ADMIN_ERRORS } from '../error-lists'

export const unfollowChannelRoute = createRoute({
  operationId: 'unfollowChannel',
  method: 'post',
  path: '/v1/channel/{channelId}/unfollow',
  tags: ['Channels'],
  summary: 'Unfollow a channel',
  description:
    'The account stops following the channel. Idempotent. 403 for a channel the account owns (WhatsApp lets an owner delete it, from the phone, not leave it); 404 when WhatsApp knows no such channel.',
  security: bearerSecurity,
  request: { params: ChannelIdParam, body: jsonBody(UnfollowChannelBody) },
  responses: {
    200: jsonResponse(ChannelFollowResponse, 'Unfollowed'),
    ...errorResponses(GROUP_ADMIN_ERRORS),
  },
})

export const unfollowChannelEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(unfollowChannelRoute, async (c) =>
    c.json(
      await setChannelFollowed(ctx, {
        workspaceId: c.get('workspace').id,
        sessionId: c.req.valid('json').sessionId,
        channelId: c.req.valid('param').channelId,
        follow: false,
      }),
      200,
    ),
  )
