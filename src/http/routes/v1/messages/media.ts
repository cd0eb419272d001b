import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses } from '../../../../openapi/route'
import { fileResponses } from '../../../../schemas/media'
import { GetMessageParams, GetMessageQuery } from '../../../../schemas/message'
import type { GatewayContext } from '../../../../services/context'
import { messageMedia } from '../../../../services/media/serve'
import { mediaResponse } from '../../../media-response'
import { createRouter } from '../../../router'
import { LOOKUP_ERRORS } from '../error-lists'

export const getMessageMediaRoute = createRoute({
  operationId: 'getMessageMedia',
  method: 'get',
  path: '/v1/message/{messageId}/media',
  tags: ['Messages'],
  summary: 'The file of a received image, video, audio, voice note, document or sticker',
  description:
    'Fetched from WhatsApp on the first request (MEDIA_DOWNLOAD=lazy) or as the message arrived (eager), checked ' +
    '(MAC, SHA-256, length) and kept in the media store; served from there with ETag and Range. Only over https ' +
    'from WhatsApp’s media hosts, never following a redirect. A file WhatsApp no longer has is asked of the phone ' +
    'again once. Any download that fails (whatever WhatsApp’s side answered, or a message naming a place that is ' +
    'not WhatsApp’s) is one 422 media_unavailable; the gateway log says why. 404 for a message of another ' +
    'workspace, an unknown one, or one without a file.',
  security: bearerSecurity,
  request: { params: GetMessageParams, query: GetMessageQuery },
  responses: {
    ...fileResponses,
    ...errorResponses([
      ...LOOKUP_ERRORS,
      'payload_too_large',
      'range_not_satisfiable',
      'media_unavailable',
      'upstream_error',
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
