import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { ChatwootConfigBody, ChatwootConfigSchema } from '../../../../schemas/chatwoot'
import { SessionIdParam } from '../../../../schemas/session'
import { configureChatwoot } from '../../../../services/chatwoot/configure'
import type { GatewayContext } from '../../../../services/context'
import { createRouter } from '../../../router'

export const putChatwootRoute = createRoute({
  operationId: 'putSessionChatwoot',
  method: 'put',
  path: '/v1/session/{id}/chatwoot',
  tags: ['Chatwoot'],
  summary: 'Mirror the session’s chats into a Chatwoot inbox (turn on or change)',
  description:
    'Checks the token with Chatwoot and finds the API inbox named inboxName (default: the session’s name) or creates it with the gateway’s callback URL (under PUBLIC_URL) as its webhook. Nothing is saved unless Chatwoot accepted it: a refused token or account is 400, an unreachable Chatwoot 502/504. docs/chatwoot.md says what is mirrored how.',
  security: bearerSecurity,
  request: { params: SessionIdParam, body: jsonBody(ChatwootConfigBody) },
  responses: {
    200: jsonResponse(ChatwootConfigSchema, 'The integration, the token masked'),
    ...errorResponses(['validation_error', 'plan_required', 'not_found', 'upstream_error', 'upstream_timeout']),
  },
})

export const putChatwootEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(putChatwootRoute, async (c) =>
    c.json(
      await configureChatwoot(ctx, {
        workspaceId: c.get('workspace').id,
        plan: c.get('plan'),
        sessionId: c.req.valid('param').id,
        input: c.req.valid('json'),
      }),
      200,
    ),
  )
