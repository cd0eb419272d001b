import { Hono } from 'hono'
import type { RouteSpec } from '../../../../openapi/route'
import { ContactCheckBody, ContactCheckResponse } from '../../../../schemas/contact'
import { checkContacts } from '../../../../services/contacts/check'
import type { GatewayContext } from '../../../../services/context'
import type { AppEnv } from '../../../env'
import { validate } from '../../../validation'

export const checkContactsSpec: RouteSpec = {
  method: 'post',
  path: '/v1/contact/check',
  summary: 'Check which phone numbers have a WhatsApp account',
  description:
    'Every number counts against the workspace’s daily quota (UTC day): free 20, paid 5,000 by default. A request that would pass it is refused whole (429) and counts nothing; a failed network query gives its checks back. RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset describe the quota.',
  tag: 'Contacts',
  body: ContactCheckBody,
  response: { description: 'One result per number, in request order', schema: ContactCheckResponse },
  errors: ['validation_error', 'not_found', 'session_not_connected', 'daily_limit_exceeded', 'upstream_error', 'upstream_timeout'],
}

export const checkContactsRoute = (ctx: GatewayContext) =>
  new Hono<AppEnv>().post('/v1/contact/check', validate('json', ContactCheckBody), async (c) => {
    const { body, headers } = await checkContacts(ctx, {
      workspaceId: c.get('workspace').id,
      plan: c.get('plan'),
      input: c.req.valid('json'),
    })
    return c.json(body, 200, headers)
  })
