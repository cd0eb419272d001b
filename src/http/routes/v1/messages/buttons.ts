import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { MessageRecordSchema, SendButtonsBody } from '../../../../schemas/message'
import type { GatewayContext } from '../../../../services/context'
import { sendMessage } from '../../../../services/messages/send'
import { createRouter } from '../../../router'
import { IdempotencyHeaders, SEND_ERRORS, SENT_DESCRIPTION } from './send-common'

export const sendButtonsRoute = createRoute({
  operationId: 'sendButtons',
  method: 'post',
  path: '/v1/message/buttons',
  tags: ['Messages'],
  summary: 'Send reply buttons (paid plans)',
  description: 'Native-flow quick-reply buttons: at most 5. `text` is accepted for `message`, and for a button’\s `buttonText`. Paid plans only (403 plan_required).',
  security: bearerSecurity,
  request: { headers: IdempotencyHeaders, body: jsonBody(SendButtonsBody) },
  responses: {
    200: jsonResponse(MessageRecordSchema, SENT_DESCRIPTION),
    ...errorResponses([...SEND_ERRORS, 'plan_required' as const]),
  },
})

export const sendButtonsEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(sendButtonsRoute, async (c) => {
    const record = await sendMessage(ctx, {
      workspaceId: c.get('workspace').id,
      plan: c.get('plan'),
      input: { kind: 'buttons', ...c.req.valid('json') },
      idempotencyKey: c.req.valid('header')['idempotency-key'],
    })
    return c.json(record, 200)
  })
