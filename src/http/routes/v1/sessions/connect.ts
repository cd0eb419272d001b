import { Hono } from 'hono'
import type { RouteSpec } from '../../../../openapi/route'
import { ConnectSessionBody, ConnectSessionResponse } from '../../../../schemas/session'
import type { GatewayContext } from '../../../../services/context'
import { connectSession } from '../../../../services/sessions/connect'
import type { AppEnv } from '../../../env'
import { validate } from '../../../validation'

export const connectSessionSpec: RouteSpec = {
  method: 'post',
  path: '/v1/session/connect',
  summary: 'Open a session and get its QR code (or pairing code)',
  description:
    'Waits for the first QR payload from WhatsApp (bounded by CONNECT_TIMEOUT_MS). Reusing the name of an expired, logged-out or disconnected session re-pairs it under the same sessionId.',
  tag: 'Sessions',
  body: ConnectSessionBody,
  response: { description: 'The new pairing', schema: ConnectSessionResponse },
  errors: ['validation_error', 'plan_required', 'session_name_taken', 'upstream_error', 'upstream_timeout'],
}

export const connectSessionRoute = (ctx: GatewayContext) =>
  new Hono<AppEnv>().post('/v1/session/connect', validate('json', ConnectSessionBody), async (c) => {
    const result = await connectSession(ctx, { workspace: c.get('workspace'), plan: c.get('plan'), input: c.req.valid('json') })
    return c.json(result, 200)
  })
