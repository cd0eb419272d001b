import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { GroupIdParam, GroupParticipantsBody, GroupParticipantsResponse } from '../../../../schemas/group'
import type { GatewayContext } from '../../../../services/context'
import { updateParticipants } from '../../../../services/groups/participants'
import { createRouter } from '../../../router'
import { GROUP_ADMIN_ERRORS } from '../error-lists'

export const groupParticipantsRoute = createRoute({
  operationId: 'updateGroupParticipants',
  method: 'post',
  path: '/v1/group/{groupId}/participants',
  tags: ['Groups'],
  summary: 'Add, remove, promote or demote participants',
  description:
    'Admins only (403 forbidden), except add in a group that lets every member add. One WhatsApp request; each phone gets WhatsApp’s result.',
  security: bearerSecurity,
  request: { params: GroupIdParam, body: jsonBody(GroupParticipantsBody) },
  responses: {
    200: jsonResponse(GroupParticipantsResponse, 'A result per phone, in request order'),
    ...errorResponses(GROUP_ADMIN_ERRORS),
  },
})

export const groupParticipantsEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(groupParticipantsRoute, async (c) =>
    c.json(
      await updateParticipants(ctx, {
        workspaceId: c.get('workspace').id,
        groupId: c.req.valid('param').groupId,
        input: c.req.valid('json'),
      }),
      200,
    ),
  )
