import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { PresenceBody, PresenceResponse } from '../../../../schemas/chat'
import type { GatewayContext } from '../../../../services/context'
import { sendPresence } from '../../../../services/chats/presence'
import { createRouter } from '../../../router'
import { SESSION_CALL_ERRORS } from '../error-lists'

export const presenceRoute = createRoute({
  operationId: 'sendPresence',
  method: 'post',
  path: '/v1/chat/presence',
  tags: ['Chats'],
  summary: 'Show typing, recording, or the account online',
  description:
    '`composing` (typing…), `recording` (recording audio…) and `paused` (stopped) are shown in the chat `phone`; `available` and `unavailable` set the account online or offline for everyone (no `phone`). WhatsApp clears a chat state by itself after a while. Account presence needs the profile name WhatsApp gives a linked device after its first sync: without it, 502.',
  security: bearerSecurity,
  request: { body: jsonBody(PresenceBody) },
  responses: {
    200: jsonResponse(PresenceResponse, 'The update was handed to WhatsApp'),
    ...errorResponses(SESSION_CALL_ERRORS),
  },
})

export const presenceEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(presenceRoute, async (c) =>
    c.json(await sendPresence(ctx, { workspaceId: c.get('workspace').id, input: c.req.valid('json') }), 200),
  )
