import { createRoute, z } from '@hono/zod-openapi'
import { errorResponses, jsonResponse } from '../../../openapi/route'
import { handleChatwootCallback } from '../../../services/chatwoot/callback'
import type { GatewayContext } from '../../../services/context'
import { createRouter } from '../../router'

const CallbackParams = z.object({
  sessionId: z.string().min(1).max(100),
  token: z.string().min(1).max(100),
})

const CallbackAnswer = z
  .object({
    handled: z.boolean(),
    messageIds: z.array(z.string()).optional().meta({ description: 'What it sent (or deleted) on WhatsApp.' }),
    reason: z
      .string()
      .optional()
      .meta({ description: 'Why it sent nothing (a private note, the gateway’s own message, …).' }),
  })
  .meta({ id: 'ChatwootCallbackAnswer' })

export const chatwootCallbackRoute = createRoute({
  operationId: 'chatwootCallback',
  method: 'post',
  path: '/v1/chatwoot/{sessionId}/callback/{token}',
  tags: ['Chatwoot'],
  summary: 'Chatwoot’s webhook for a session’s inbox (set by PUT /v1/session/{id}/chatwoot; no API key)',
  description:
    'The token in the path is the credential: the gateway derives it from its secret and the session, and checks it in constant time (401 otherwise). An agent’s reply (message_created, outgoing, not private) is sent to the chat once, its attachments fetched through the guarded fetcher; a message deleted in Chatwoot is deleted for everyone. Anything else is answered with handled: false and the reason.',
  security: [],
  request: {
    params: CallbackParams,
    body: {
      content: {
        'application/json': {
          schema: z.looseObject({}).meta({
            description: 'Chatwoot’s webhook payload (docs/chatwoot.md says which events and fields are read).',
            example: {
              event: 'message_created',
              id: 12,
              content: 'Hello from Chatwoot',
              message_type: 'outgoing',
              private: false,
              source_id: null,
              sender: { id: 1, name: 'Maria', type: 'user' },
              conversation: {
                id: 7,
                inbox_id: 3,
                contact_inbox: { source_id: '6c1c1f4e-2c7a-4f0e-9d2b-1b2f5b1c0a11' },
              },
              inbox: { id: 3, name: 'Sales' },
              account: { id: 1 },
            },
          }),
        },
      },
      required: true,
    },
  },
  responses: {
    200: jsonResponse(CallbackAnswer, 'What the gateway did with it'),
    ...errorResponses(
      ['validation_error', 'unauthorized', 'not_found', 'session_not_connected', 'media_unavailable', 'upstream_error'],
      { authenticated: false },
    ),
  },
})

/** Mounted before the deployment key and /v1's bearer auth (see createHttpApp): Chatwoot sends no key of ours. */
export const chatwootCallbackRoutes = (ctx: GatewayContext) =>
  createRouter().openapi(chatwootCallbackRoute, async (c) => {
    const { sessionId, token } = c.req.valid('param')
    const outcome = await handleChatwootCallback(ctx, { sessionId, token, payload: c.req.valid('json') })
    return c.json(outcome, 200)
  })
