import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { MessageRecordSchema, SendImageBody } from '../../../../schemas/message'
import type { GatewayContext } from '../../../../services/context'
import { sendMessage } from '../../../../services/messages/send'
import { createRouter } from '../../../router'
import { IdempotencyHeaders, MEDIA_SEND_ERRORS, SENT_DESCRIPTION } from './send-common'

export const sendImageRoute = createRoute({
  operationId: 'sendImage',
  method: 'post',
  path: '/v1/message/image',
  tags: ['Messages'],
  summary: 'Send an image',
  description: 'The gateway fetches imageUrl (size- and time-limited, private addresses refused) and sends it with its real type and dimensions.',
  security: bearerSecurity,
  request: { headers: IdempotencyHeaders, body: jsonBody(SendImageBody) },
  responses: {
    200: jsonResponse(MessageRecordSchema, SENT_DESCRIPTION),
    ...errorResponses([...MEDIA_SEND_ERRORS]),
  },
})

export const sendImageEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(sendImageRoute, async (c) => {
    const record = await sendMessage(ctx, {
      workspaceId: c.get('workspace').id,
      plan: c.get('plan'),
      input: { kind: 'image', ...c.req.valid('json') },
      idempotencyKey: c.req.valid('header')['idempotency-key'],
    })
    return c.json(record, 200)
  })
