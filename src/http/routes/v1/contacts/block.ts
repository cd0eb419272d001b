import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { BlockContactBody, BlockResponse, ContactPhoneParam } from '../../../../schemas/contact-profile'
import { setContactBlocked } from '../../../../services/contacts/block'
import type { GatewayContext } from '../../../../services/context'
import { createRouter } from '../../../router'
import { SESSION_CALL_ERRORS } from '../error-lists'

export const blockContactRoute = createRoute({
  operationId: 'blockContact',
  method: 'post',
  path: '/v1/contact/{phone}/block',
  tags: ['Contacts'],
  summary: 'Block someone',
  description:
    'WhatsApp stops relaying their messages and calls to the account and hides its photo and about from them. Idempotent: blocking someone already blocked answers the same. A `<digits>@lid` needs the number behind it to be known to the session (404 otherwise: block by number).',
  security: bearerSecurity,
  request: { params: ContactPhoneParam, body: jsonBody(BlockContactBody) },
  responses: {
    200: jsonResponse(BlockResponse, 'Blocked'),
    ...errorResponses(SESSION_CALL_ERRORS),
  },
})

export const blockContactEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(blockContactRoute, async (c) =>
    c.json(
      await setContactBlocked(ctx, {
        workspaceId: c.get('workspace').id,
        sessionId: c.req.valid('json').sessionId,
        phone: c.req.valid('param').phone,
        blocked: true,
      }),
      200,
    ),
  )
