import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses } from '../../../../openapi/route'
import { fileResponses } from '../../../../schemas/media'
import { GetMessageParams, GetMessageQuery } from '../../../../schemas/message'
import type { GatewayContext } from '../../../../services/context'
import { messageMedia } from '../../../../services/media/serve'
import { mediaResponse } from '../../../media-response'
import { createRouter } from '../../../router'

export const getMessageMediaRoute = createRoute({
  operationId: 'getMessageMedia',
  method: 'get',
  path: '/v1/message/{messageId}/media',
  tags: ['Messages'],
  summary: 'The file of a received image, video, audio, voice note, document or sticker',
  description:
    'Fetched from WhatsApp on the first request (MEDIA_DOWNLOAD=lazy) or as the message arrived (eager), checked ' +
    '(MAC, SHA-256, length) and kept in the media store; served from there with ETag and Range. A file WhatsApp no ' +
    'longer has is asked of the phone again once (410 media_expired when it cannot give it, 409 when the session is ' +
    'offline). 404 for a message of another workspace, an unknown one, or one without a file.',
  security: bearerSecurity,
  request: { params: GetMessageParams, query: GetMessageQuery },
  responses: {
    ...fileResponses,
    ...errorResponses([
      'validation_error',
      'not_found',
      'session_not_connected',
      'media_expired',
      'payload_too_large',
      'range_not_satisfiable',
      'upstream_error',
      'upstream_timeout',
    ]),
  },
})

export const getMessageMediaEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(getMessageMediaRoute, async (c) => {
    const file = messageMedia(ctx, {
      workspaceId: c.get('workspace').id,
      sessionId: c.req.valid('query').sessionId,
      messageId: c.req.valid('param').messageId,
    })
    return mediaResponse(c, file, 0)
  })
