import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { GroupIdParam, GroupInviteResponse, RevokeGroupInviteBody } from '../../../../schemas/group'
import type { GatewayContext } from '../../../../services/context'
import { groupInvite } from '../../../../services/groups/invite'
import { createRouter } from '../../../router'
import { GROUP_ADMIN_ERRORS } from '../error-lists'

export const revokeGroupInviteRoute = createRoute({
  operationId: 'revokeGroupInvite',
  method: 'post',
  path: '/v1/group/{groupId}/invite/revoke',
  tags: ['Groups'],
  summary: 'Reset the group’s invite link',
  description: 'Admins only. The old link stops working (joining with it is 404); the new one is answered.',
  security: bearerSecurity,
  request: { params: GroupIdParam, body: jsonBody(RevokeGroupInviteBody) },
  responses: {
    200: jsonResponse(GroupInviteResponse, 'The new invite code and link'),
    ...errorResponses(GROUP_ADMIN_ERRORS),
  },
})

export const revokeGroupInviteEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(revokeGroupInviteRoute, async (c) =>
    c.json(
      await groupInvite(ctx, {
        workspaceId: c.get('workspace').id,
        sessionId: c.req.valid('json').sessionId,
        groupId: c.req.valid('param').groupId,
        revoke: true,
      }),
      200,
    ),
  )
