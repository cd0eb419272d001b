import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { CreateGroupBody, CreateGroupResponse } from '../../../../schemas/group'
import type { GatewayContext } from '../../../../services/context'
import { createGroup } from '../../../../services/groups/create'
import { createRouter } from '../../../router'
import { SESSION_CALL_ERRORS } from '../error-lists'

export const createGroupRoute = createRoute({
  operationId: 'createGroup',
  method: 'post',
  path: '/v1/group/create',
  tags: ['Groups'],
  summary: 'Create a group',
  description:
    'The session’s account becomes its superadmin. Each participant gets a result: one WhatsApp could not add (not on WhatsApp, privacy settings) is reported there, with the invite WhatsApp offers for a privacy refusal. Not idempotent: two calls create two groups.',
  security: bearerSecurity,
  request: { body: jsonBody(CreateGroupBody) },
  responses: {
    200: jsonResponse(CreateGroupResponse, 'The group and a result per participant, in request order'),
    ...errorResponses(SESSION_CALL_ERRORS),
  },
})

export const createGroupEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(createGroupRoute, async (c) =>
    c.json(await createGroup(ctx, { workspaceId: c.get('workspace').id, input: c.req.valid('json') }), 200),
  )
