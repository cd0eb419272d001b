import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { MessageRecordSchema, SendLocationBody } from '../../../../schemas/message'
import type { GatewayContext } from '../../../../services/context'
import { sendMessage } from '../../../../services/messages/send'
import { createRouter } from '../../../router'
import { IdempotencyHeaders, SEND_ERRORS, SENT_DESCRIPTION } from './send-common'

export const sendLocationRoute = createRoute({
  operationId: 'sendLocation',
  method: 'post',
  path: '/v1/message/location',
  tags: ['Messages'],
  summary: 'Share a location',
  description: 'Coordinates in degrees: latitude −90..90, longitude −180..180.',
  security: bearerSecurity,
  request: { headers: IdempotencyHeaders, body: jsonBody(SendLocationBody) },
  responses: {
    200: jsonResponse(MessageRecordSchema, SENT_DESCRIPTION),
    ...errorResponses([...SEND_ERRORS]),
  },
})

export const sendLocationEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(sendLocationRoute, async (c) => {
    const record = await sendMessage(ctx, {
      workspaceId: c.get('workspace').id,
      plan: c.get('plan'),
      input: { kind: 'location', ...c.req.valid('json') },
      idempotencyKey: c.req.valid('header')['idempotency-key'],
    })
    return c.json(record, 200)
  })
