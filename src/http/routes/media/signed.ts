import { createRoute } from '@hono/zod-openapi'
import type { GatewayContext } from '../../../services/context'
import { errorResponses } from '../../../openapi/route'
import { fileResponses, MediaTokenParams } from '../../../schemas/media'
import { signedMedia } from '../../../services/media/serve'
import { mediaResponse } from '../../media-response'
import { createRouter } from '../../router'

export const signedMediaRoute = createRoute({
  operationId: 'getSignedMedia',
  method: 'get',
  path: '/v1/media/{token}',
  tags: ['Messages'],
  summary: 'A received file by the downloadUrl of its message.received event (no API key)',
  description:
    'The token is the credential: it names one message and is signed with the gateway’s secret, good for ' +
    'MEDIA_URL_TTL seconds. No Authorization (and no x-api-key) is needed. A tampered or expired token is 403; ' +
    'otherwise as GET /v1/message/{messageId}/media.',
  // No credential: the signed token in the path is one
  security: [],
  request: { params: MediaTokenParams },
  responses: {
    ...fileResponses,
    ...errorResponses(
      ['forbidden', 'not_found', 'payload_too_large', 'range_not_satisfiable', 'media_unavailable', 'upstream_error'],
      { authenticated: false },
    ),
  },
})

/**
 * Mounted before the deployment key and /v1's bearer auth (see createHttpApp): a webhook
 * receiver fetches it with one plain GET.
 */
export const signedMediaRoutes = (ctx: GatewayContext) =>
  createRouter().openapi(signedMediaRoute, async (c) => {
    const file = signedMedia(ctx, c.req.valid('param').token)
    return mediaResponse(c, file, 0)
  })
