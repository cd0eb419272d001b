import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { MessageRecordSchema, SendTextBody } from '../../../../schemas/message'
import type { GatewayContext } from '../../../../services/context'
import { sendMessage } from '../../../../services/messages/send'
import { createRouter } from '../../../router'
import { IdempotencyHeaders, SEND_ERRORS, SENT_DESCRIPTION } from './send-common'

export const sendTextRoute = createRoute({
  operationId: 'sendText',
  method: 'post',
  path: '/v1/message/text',
  tags: ['Messages'],
  summary: 'Send a text message',
  description: 'To a phone number, a group (`<id>@g.us`) or a LID. `to` and `text` are accepted for `phone` and `message`.',
  security: bearerSecurity,
  request: { headers: IdempotencyHeaders, body: jsonBody(SendTextBody) },
  responses: {
    200: jsonResponse(MessageRecordSchema, SENT_DESCRIPTION),
    ...errorResponses([...SEND_ERRORS]),
  },
})

export const sendTextEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(sendTextRoute, async (c) => {
    const record = await sendMessage(ctx, {
      workspaceId: c.get('workspace').id,
      plan: c.get('plan'),
      input: { kind: 'text', ...c.req.valid('json') },
      idempotencyKey: c.req.valid('header')['idempotency-key'],
    })
    return c.json(record, 200)
  })
