import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { GroupListResponse, GroupSessionQuery } from '../../../../schemas/group'
import type { GatewayContext } from '../../../../services/context'
import { listGroups } from '../../../../services/groups/list'
import { createRouter } from '../../../router'
import { SESSION_CALL_ERRORS } from '../error-lists'

export const listGroupsRoute = createRoute({
  operationId: 'listGroups',
  method: 'get',
  path: '/v1/group/all',
  tags: ['Groups'],
  summary: 'The groups the session’s account is in',
  description:
    'Served from the gateway’s group store: fetched from WhatsApp once per login and kept fresh from its group notifications, so a call asks WhatsApp nothing.',
  security: bearerSecurity,
  request: { query: GroupSessionQuery },
  responses: {
    200: jsonResponse(GroupListResponse, 'Every group, ordered by subject'),
    ...errorResponses(SESSION_CALL_ERRORS),
  },
})

export const listGroupsEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(listGroupsRoute, async (c) =>
    c.json(
      await listGroups(ctx, { workspaceId: c.get('workspace').id, sessionId: c.req.valid('query').sessionId }),
      200,
    ),
  )
