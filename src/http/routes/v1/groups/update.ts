import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { GroupIdParam, GroupSchema, UpdateGroupBody } from '../../../../schemas/group'
import type { GatewayContext } from '../../../../services/context'
import { updateGroup } from '../../../../services/groups/update'
import { createRouter } from '../../../router'
import { GROUP_ADMIN_ERRORS } from '../error-lists'

export const updateGroupRoute = createRoute({
  operationId: 'updateGroup',
  method: 'put',
  path: '/v1/group/{groupId}',
  tags: ['Groups'],
  summary: 'Change a group’s subject, description or settings',
  description:
    'announce and restrict are for admins; so are subject and description when the group is restricted (403 forbidden, nothing changed). One WhatsApp request per field: a failure after some were applied names them in details.applied.',
  security: bearerSecurity,
  request: { params: GroupIdParam, body: jsonBody(UpdateGroupBody) },
  responses: {
    200: jsonResponse(GroupSchema, 'The group as changed'),
    ...errorResponses(GROUP_ADMIN_ERRORS),
  },
})

export const updateGroupEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(updateGroupRoute, async (c) =>
    c.json(
      await updateGroup(ctx, {
        workspaceId: c.get('workspace').id,
        groupId: c.req.valid('param').groupId,
        input: c.req.valid('json'),
      }),
      200,
    ),
  )
