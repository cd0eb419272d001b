import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { ReplayBody, ReplayResponse } from '../../../../schemas/webhook'
import type { GatewayContext } from '../../../../services/context'
import { replayEvents } from '../../../../services/webhooks/resend'
import { createRouter } from '../../../router'
import { LOOKUP_ERRORS } from '../error-lists'

export const replayRoute = createRoute({
  operationId: 'replayWebhookEvents',
  method: 'post',
  path: '/v1/webhooks/replay',
  tags: ['Webhooks'],
  summary: 'Send a session’s events since a time again',
  description:
    'Each event goes out again with its original webhook-id, body and sequence, after anything still pending for the session.',
  security: bearerSecurity,
  request: { body: jsonBody(ReplayBody) },
  responses: {
    200: jsonResponse(ReplayResponse, 'How many events were queued again'),
    ...errorResponses(LOOKUP_ERRORS),
  },
})

export const replayEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(replayRoute, (c) =>
    c.json(replayEvents(ctx, { workspaceId: c.get('workspace').id, input: c.req.valid('json') }), 200),
  )
