import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { GroupSchema, JoinGroupBody } from '../../../../schemas/group'
import type { GatewayContext } from '../../../../services/context'
import { joinGroup } from '../../../../services/groups/join'
import { createRouter } from '../../../router'
import { SESSION_CALL_ERRORS } from '../error-lists'

export const joinGroupRoute = createRoute({
  operationId: 'joinGroup',
  method: 'post',
  path: '/v1/group/join',
  tags: ['Groups'],
  summary: 'Join a group with its invite link or code',
  description: 'A code no group has, or a link its admins reset, is 404. Already in the group: answered the same.',
  security: bearerSecurity,
  request: { body: jsonBody(JoinGroupBody) },
  responses: {
    200: jsonResponse(GroupSchema, 'The group joined'),
    ...errorResponses(SESSION_CALL_ERRORS),
  },
})

export const joinGroupEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(joinGroupRoute, async (c) =>
    c.json(await joinGroup(ctx, { workspaceId: c.get('workspace').id, input: c.req.valid('json') }), 200),
  )
