import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { PrivacyResponse, UpdatePrivacyBody } from '../../../../schemas/privacy'
import { SessionIdParam } from '../../../../schemas/session'
import type { GatewayContext } from '../../../../services/context'
import { updatePrivacy } from '../../../../services/sessions/privacy'
import { createRouter } from '../../../router'
import { SESSION_CALL_ERRORS } from '../error-lists'

export const updatePrivacyRoute = createRoute({
  operationId: 'updateSessionPrivacy',
  method: 'patch',
  path: '/v1/session/{id}/privacy',
  tags: ['Sessions'],
  summary: 'Change the account’s privacy settings',
  description:
    'Only the settings given change, one WhatsApp request each, in the order of the answer’s fields; the answer is every setting as WhatsApp then has them. A failure part way leaves the earlier ones applied (the error says so; GET tells the state).',
  security: bearerSecurity,
  request: { params: SessionIdParam, body: jsonBody(UpdatePrivacyBody) },
  responses: {
    200: jsonResponse(PrivacyResponse, 'The settings after the change'),
    ...errorResponses(SESSION_CALL_ERRORS),
  },
})

export const updatePrivacyEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(updatePrivacyRoute, async (c) =>
    c.json(
      await updatePrivacy(ctx, {
        workspaceId: c.get('workspace').id,
        sessionId: c.req.valid('param').id,
        input: c.req.valid('json'),
      }),
      200,
    ),
  )
