import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { MessageRecordSchema, SendStickerBody } from '../../../../schemas/message'
import type { GatewayContext } from '../../../../services/context'
import { sendMessage } from '../../../../services/messages/send'
import { createRouter } from '../../../router'
import { IdempotencyHeaders, MEDIA_SEND_ERRORS, SENT_DESCRIPTION } from './send-common'

export const sendStickerRoute = createRoute({
  operationId: 'sendSticker',
  method: 'post',
  path: '/v1/message/sticker',
  tags: ['Messages'],
  summary: 'Send a sticker',
  description: 'A .webp or .gif image becomes a 512×512 WebP sticker; a GIF stays animated.',
  security: bearerSecurity,
  request: { headers: IdempotencyHeaders, body: jsonBody(SendStickerBody) },
  responses: {
    200: jsonResponse(MessageRecordSchema, SENT_DESCRIPTION),
    ...errorResponses([...MEDIA_SEND_ERRORS]),
  },
})

export const sendStickerEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(sendStickerRoute, async (c) => {
    const record = await sendMessage(ctx, {
      workspaceId: c.get('workspace').id,
      plan: c.get('plan'),
      input: { kind: 'sticker', ...c.req.valid('json') },
      idempotencyKey: c.req.valid('header')['idempotency-key'],
    })
    return c.json(record, 200)
  })
