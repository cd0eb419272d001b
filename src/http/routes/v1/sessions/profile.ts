import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { OwnProfileResponse, UpdateOwnProfileBody } from '../../../../schemas/own-profile'
import { SessionIdParam } from '../../../../schemas/session'
import type { GatewayContext } from '../../../../services/context'
import { updateOwnProfile } from '../../../../services/sessions/profile'
import { createRouter } from '../../../router'
import { SESSION_CALL_ERRORS } from '../error-lists'

export const updateOwnProfileRoute = createRoute({
  operationId: 'updateSessionProfile',
  method: 'put',
  path: '/v1/session/{id}/profile',
  tags: ['Sessions'],
  summary: 'Change the account’s name, about or profile photo',
  description:
    'What the account’s contacts see. The photo is fetched (or decoded from a data: URL) and checked first: a refused photo is 422 and nothing changes. One WhatsApp request per field (about, photo, name, in that order): a failure after some were applied names them in details.applied. The name needs the app-state key the phone sends shortly after linking (502 with details.reason no_app_state_key until then).',
  security: bearerSecurity,
  request: { params: SessionIdParam, body: jsonBody(UpdateOwnProfileBody) },
  responses: {
    200: jsonResponse(OwnProfileResponse, 'What was changed'),
    ...errorResponses([...SESSION_CALL_ERRORS, 'payload_too_large', 'media_unavailable']),
  },
})

export const updateOwnProfileEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(updateOwnProfileRoute, async (c) =>
    c.json(
      await updateOwnProfile(ctx, {
        workspaceId: c.get('workspace').id,
        sessionId: c.req.valid('param').id,
        input: c.req.valid('json'),
      }),
      200,
    ),
  )
