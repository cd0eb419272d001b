import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { GroupIdParam, GroupSchema, GroupSessionQuery } from '../../../../schemas/group'
import type { GatewayContext } from '../../../../services/context'
import { getGroup } from '../../../../services/groups/list'
import { createRouter } from '../../../router'
import { SESSION_CALL_ERRORS } from '../error-lists'

export const getGroupRoute = createRoute({
  operationId: 'getGroup',
  method: 'get',
  path: '/v1/group/{groupId}',
  tags: ['Groups'],
  summary: 'One group: subject, description, owner, settings and participants',
  description: 'From the group store, like GET /v1/group/all. A group the account is not in is 404.',
  security: bearerSecurity,
  request: { params: GroupIdParam, query: GroupSessionQuery },
  responses: {
    200: jsonResponse(GroupSchema, 'The group'),
    ...errorResponses(SESSION_CALL_ERRORS),
  },
})

export const getGroupEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(getGroupRoute, async (c) =>
    c.json(
      await getGroup(ctx, {
        workspaceId: c.get('workspace').id,
        sessionId: c.req.valid('query').sessionId,
        groupId: c.req.valid('param').groupId,
      }),
      200,
    ),
  )
