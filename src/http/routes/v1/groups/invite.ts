import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { GroupIdParam, GroupInviteResponse, GroupSessionQuery } from '../../../../schemas/group'
import type { GatewayContext } from '../../../../services/context'
import { groupInvite } from '../../../../services/groups/invite'
import { createRouter } from '../../../router'
import { GROUP_ADMIN_ERRORS } from '../error-lists'

export const groupInviteRoute = createRoute({
  operationId: 'getGroupInvite',
  method: 'get',
  path: '/v1/group/{groupId}/invite',
  tags: ['Groups'],
  summary: 'The group’s invite link',
  description: 'Admins only. Anyone with the link can join (POST /v1/group/join) until it is reset.',
  security: bearerSecurity,
  request: { params: GroupIdParam, query: GroupSessionQuery },
  responses: {
    200: jsonResponse(GroupInviteResponse, 'The invite code and link'),
    ...errorResponses(GROUP_ADMIN_ERRORS),
  },
})

export const groupInviteEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(groupInviteRoute, async (c) =>
    c.json(
      await groupInvite(ctx, {
        workspaceId: c.get('workspace').id,
        sessionId: c.req.valid('query').sessionId,
        groupId: c.req.valid('param').groupId,
        revoke: false,
      }),
      200,
    ),
  )
