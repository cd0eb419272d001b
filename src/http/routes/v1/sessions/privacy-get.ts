import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { PrivacyResponse } from '../../../../schemas/privacy'
import { SessionIdParam } from '../../../../schemas/session'
import type { GatewayContext } from '../../../../services/context'
import { getPrivacy } from '../../../../services/sessions/privacy'
import { createRouter } from '../../../router'
import { SESSION_CALL_ERRORS } from '../error-lists'

export const getPrivacyRoute = createRoute({
  operationId: 'getSessionPrivacy',
  method: 'get',
  path: '/v1/session/{id}/privacy',
  tags: ['Sessions'],
  summary: 'Read the account’s privacy settings',
  description:
    'Who sees the account’s last seen, online state, profile photo and about, who may add it to groups or call it, and whether it sends read receipts. Asked of WhatsApp each time, so a change made on the phone shows at once.',
  security: bearerSecurity,
  request: { params: SessionIdParam },
  responses: {
    200: jsonResponse(PrivacyResponse, 'The settings'),
    ...errorResponses(SESSION_CALL_ERRORS),
  },
})

export const getPrivacyEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(getPrivacyRoute, async (c) =>
    c.json(await getPrivacy(ctx, { workspaceId: c.get('workspace').id, sessionId: c.req.valid('param').id }), 200),
  )
