import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { ContactPhoneParam, ContactProfileResponse, ContactSessionQuery } from '../../../../schemas/contact-profile'
import type { GatewayContext } from '../../../../services/context'
import { contactProfile } from '../../../../services/contacts/profile'
import { createRouter } from '../../../router'
import { SESSION_CALL_ERRORS } from '../error-lists'

export const contactProfileRoute = createRoute({
  operationId: 'getContactProfile',
  method: 'get',
  path: '/v1/contact/{phone}/profile',
  tags: ['Contacts'],
  summary: 'Someone’s profile: push name, about, photo, business profile',
  description:
    'Asked from WhatsApp at each call (the push name comes from the messages the session received). Not a contact check: it counts against no quota, only the rate limit. `phone` is a number or a `<digits>@lid`; someone without a WhatsApp account is 404.',
  security: bearerSecurity,
  request: { params: ContactPhoneParam, query: ContactSessionQuery },
  responses: {
    200: jsonResponse(ContactProfileResponse, 'The profile'),
    ...errorResponses(SESSION_CALL_ERRORS),
  },
})

export const contactProfileEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(contactProfileRoute, async (c) =>
    c.json(
      await contactProfile(ctx, {
        workspaceId: c.get('workspace').id,
        sessionId: c.req.valid('query').sessionId,
        phone: c.req.valid('param').phone,
      }),
      200,
    ),
  )
