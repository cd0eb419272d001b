import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../../../../openapi/route'
import { ContactCheckBody, ContactCheckQuotaHeaders, ContactCheckResponse } from '../../../../schemas/contact'
import { checkContacts } from '../../../../services/contacts/check'
import type { GatewayContext } from '../../../../services/context'
import { rateLimitHeaders } from '../../../quota-headers'
import { createRouter } from '../../../router'
import { SESSION_CALL_ERRORS } from '../error-lists'

export const checkContactsRoute = createRoute({
  operationId: 'checkContacts',
  method: 'post',
  path: '/v1/contact/check',
  tags: ['Contacts'],
  summary: 'Check which phone numbers have a WhatsApp account',
  description:
    'Every number counts against the workspace’s daily quota (UTC day): free 20, paid 5,000 by default. A request that would pass it is refused whole (429) and counts nothing; a failed network query gives its checks back. RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset describe the quota.',
  security: bearerSecurity,
  request: { body: jsonBody(ContactCheckBody) },
  responses: {
    200: jsonResponse(ContactCheckResponse, 'One result per number, in request order', ContactCheckQuotaHeaders),
    ...errorResponses([...SESSION_CALL_ERRORS, 'daily_limit_exceeded']),
  },
})

export const checkContactsEndpoint = (ctx: GatewayContext) =>
  createRouter().openapi(checkContactsRoute, async (c) => {
    const { body, quota } = await checkContacts(ctx, {
      workspaceId: c.get('workspace').id,
      plan: c.get('plan'),
      input: c.req.valid('json'),
    })
    return c.json(body, 200, rateLimitHeaders(quota, ctx.clock.now()))
  })
