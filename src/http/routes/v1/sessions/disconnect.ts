import { Hono } from 'hono'
import type { RouteSpec } from '../../../../openapi/route'
import { SessionIdPathParam, SessionSchema } from '../../../../schemas/session'
import type { GatewayContext } from '../../../../services/context'
import { disconnectSession } from '../../../../services/sessions/disconnect'
import type { AppEnv } from '../../../env'
import { validate } from '../../../validation'

export const disconnectSessionSpec: RouteSpec = {
  method: 'delete',
  path: '/v1/session/disconnect/{session_id}',
  summary: 'Unlink the device and close the session',
  description: 'Logs the linked device out of WhatsApp, closes the connection and wipes its credentials. Idempotent.',
  tag: 'Sessions',
  params: SessionIdPathParam,
  response: { description: 'The session, now disconnected', schema: SessionSchema },
  errors: ['not_found'],
}

export const disconnectSessionRoute = (ctx: GatewayContext) =>
  new Hono<AppEnv>().delete('/v1/session/disconnect/:session_id', validate('param', SessionIdPathParam), async (c) => {
    const session = await disconnectSession(ctx, { workspaceId: c.get('workspace').id, sessionId: c.req.valid('param').session_id })
    return c.json(session, 200)
  })
