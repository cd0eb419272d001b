import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import {
  ContactPhoneParam,
  PresenceSubscriptionResponse,
  UnsubscribePresenceBody,
} from '../../../../schemas/contact-profile'
import { unsubscribePresence } from '../../../../services/contacts/presence'
import type { GatewayContext } from '../../../../services/context'
import { createRouter } from '../../../router'
import { SESSION_CALL_ERRORS } from '../error-lists'

export const unsubscribePresenceRoute = createRoute({
  operationId: 'unsubscribeContactPresence',
  method: 'post',
  path: '/v1/contact/{phone}/presence/unsubscribe',
  tags: ['Contacts'],
  summary: 'Stop following someone’s presence',
  description:
    'The subscription is forgotten, so no later login asks for it again, and WhatsApp is told when the session is connected. Idempotent: answers the same for someone not followed. Works on a session that is not connected too.',
  security: bearerSecurity,
  request: { params: ContactPhoneParam, body: jsonBody(UnsubscribePresenceBody) },
  responses: {
    200: jsonResponse(PresenceSubscriptionResponse, 'Not followed'),
    ...errorResponses(SESSION_CALL_ERRORS),
  },
})

export const unsubscribePresenceEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(unsubscribePresenceRoute, async (c) =>
    c.json(
      await unsubscribePresence(ctx, {
        workspaceId: c.get('workspace').id,
        sessionId: c.req.valid('json').sessionId,
        phone: c.req.valid('param').phone,
      }),
      200,
    ),
  )
