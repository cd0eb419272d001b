import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import {
  ContactPhoneParam,
  PresenceSubscriptionResponse,
  SubscribePresenceBody,
} from '../../../../schemas/contact-profile'
import { MAX_PRESENCE_SUBSCRIPTIONS, subscribePresence } from '../../../../services/contacts/presence'
import type { GatewayContext } from '../../../../services/context'
import { createRouter } from '../../../router'
import { SESSION_CALL_ERRORS } from '../error-lists'

export const subscribePresenceRoute = createRoute({
  operationId: 'subscribeContactPresence',
  method: 'post',
  path: '/v1/contact/{phone}/presence/subscribe',
  tags: ['Contacts'],
  summary: 'Follow someone’s presence',
  description: `WhatsApp then sends their state (online, or offline with their last seen where their privacy shows it) and every change, and their typing or recording in chats with the account, as \`presence.update\` events. WhatsApp forgets a subscription with the connection: the gateway keeps it and asks again at every login, until the session is unlinked. Idempotent; at most ${MAX_PRESENCE_SUBSCRIPTIONS} people per session. Someone without a WhatsApp account is 404.`,
  security: bearerSecurity,
  request: { params: ContactPhoneParam, body: jsonBody(SubscribePresenceBody) },
  responses: {
    200: jsonResponse(PresenceSubscriptionResponse, 'Subscribed'),
    ...errorResponses(SESSION_CALL_ERRORS),
  },
})

export const subscribePresenceEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(subscribePresenceRoute, async (c) =>
    c.json(
      await subscribePresence(ctx, {
        workspaceId: c.get('workspace').id,
        sessionId: c.req.valid('json').sessionId,
        phone: c.req.valid('param').phone,
      }),
      200,
    ),
  )
