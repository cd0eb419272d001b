import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { BlockResponse, ContactPhoneParam, UnblockContactBody } from '../../../../schemas/contact-profile'
import { setContactBlocked } from '../../../../services/contacts/block'
import type { GatewayContext } from '../../../../services/context'
import { createRouter } from '../../../router'
import { SESSION_CALL_ERRORS } from '../error-lists'

export const unblockContactRoute = createRoute({
  operationId: 'unblockContact',
  method: 'post',
  path: '/v1/contact/{phone}/unblock',
  tags: ['Contacts'],
  summary: 'Unblock someone',
  description:
    'Their new messages and calls reach the account again (what they sent while blocked does not). Idempotent: unblocking someone not blocked answers the same.',
  security: bearerSecurity,
  request: { params: ContactPhoneParam, body: jsonBody(UnblockContactBody) },
  responses: {
    200: jsonResponse(BlockResponse, 'Unblocked'),
    ...errorResponses(SESSION_CALL_ERRORS),
  },
})

export const unblockContactEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(unblockContactRoute, async (c) =>
    c.json(
      await setContactBlocked(ctx, {
        workspaceId: c.get('workspace').id,
        sessionId: c.req.valid('json').sessionId,
        phone: c.req.valid('param').phone,
        blocked: false,
      }),
      200,
    ),
  )
