import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { BlockedListResponse, ContactSessionQuery } from '../../../../schemas/contact-profile'
import { listBlocked } from '../../../../services/contacts/block'
import type { GatewayContext } from '../../../../services/context'
import { createRouter } from '../../../router'
import { SESSION_CALL_ERRORS } from '../error-lists'

export const blockedContactsRoute = createRoute({
  operationId: 'listBlockedContacts',
  method: 'get',
  path: '/v1/contact/blocked',
  tags: ['Contacts'],
  summary: 'The account’s block list',
  description: 'As WhatsApp keeps it, asked at each call: blocks made on the phone are listed too.',
  security: bearerSecurity,
  request: { query: ContactSessionQuery },
  responses: {
    200: jsonResponse(BlockedListResponse, 'Everyone the account blocked'),
    ...errorResponses(SESSION_CALL_ERRORS),
  },
})

export const blockedContactsEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(blockedContactsRoute, async (c) =>
    c.json(
      await listBlocked(ctx, { workspaceId: c.get('workspace').id, sessionId: c.req.valid('query').sessionId }),
      200,
    ),
  )
