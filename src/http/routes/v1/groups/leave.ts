import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { GroupIdParam, LeaveGroupBody, LeaveGroupResponse } from '../../../../schemas/group'
import type { GatewayContext } from '../../../../services/context'
import { leaveGroup } from '../../../../services/groups/leave'
import { createRouter } from '../../../router'
import { SESSION_CALL_ERRORS } from '../error-lists'

export const leaveGroupRoute = createRoute({
  operationId: 'leaveGroup',
  method: 'post',
  path: '/v1/group/{groupId}/leave',
  tags: ['Groups'],
  summary: 'Leave a group',
  security: bearerSecurity,
  request: { params: GroupIdParam, body: jsonBody(LeaveGroupBody) },
  responses: {
    200: jsonResponse(LeaveGroupResponse, 'Left'),
    ...errorResponses(SESSION_CALL_ERRORS),
  },
})

export const leaveGroupEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(leaveGroupRoute, async (c) =>
    c.json(
      await leaveGroup(ctx, {
        workspaceId: c.get('workspace').id,
        sessionId: c.req.valid('json').sessionId,
        groupId: c.req.valid('param').groupId,
      }),
      200,
    ),
  )
