import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { MessageRecordSchema, SendAudioBody } from '../../../../schemas/message'
import type { GatewayContext } from '../../../../services/context'
import { sendMessage } from '../../../../services/messages/send'
import { createRouter } from '../../../router'
import { IdempotencyHeaders, MEDIA_SEND_ERRORS, SENT_DESCRIPTION } from './send-common'

export const sendAudioRoute = createRoute({
  operationId: 'sendAudio',
  method: 'post',
  path: '/v1/message/audio',
  tags: ['Messages'],
  summary: 'Send an audio file or a voice note',
  description: 'mp3, ogg (vorbis or opus) or opus. With `ptt: true` it is converted to an OGG/Opus voice note with its length and waveform; otherwise sent as the file it is.',
  security: bearerSecurity,
  request: { headers: IdempotencyHeaders, body: jsonBody(SendAudioBody) },
  responses: {
    200: jsonResponse(MessageRecordSchema, SENT_DESCRIPTION),
    ...errorResponses([...MEDIA_SEND_ERRORS]),
  },
})

export const sendAudioEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(sendAudioRoute, async (c) => {
    const record = await sendMessage(ctx, {
      workspaceId: c.get('workspace').id,
      plan: c.get('plan'),
      input: { kind: 'audio', ...c.req.valid('json') },
      idempotencyKey: c.req.valid('header')['idempotency-key'],
    })
    return c.json(record, 200)
  })
