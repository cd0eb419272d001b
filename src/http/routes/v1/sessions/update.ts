import { Hono } from 'hono'
import type { RouteSpec } from '../../../../openapi/route'
import { SessionIdParam, SessionSchema, UpdateSessionBody } from '../../../../schemas/session'
import type { GatewayContext } from '../../../../services/context'
import { updateSession } from '../../../../services/sessions/update'
import type { AppEnv } from '../../../env'
import { validate } from '../../../validation'

export const updateSessionSpec: RouteSpec = {
  method: 'put',
  path: '/v1/session/update/{id}',
  summary: 'Change a session’s name, webhook or call handling',
  tag: 'Sessions',
  params: SessionIdParam,
  body: UpdateSessionBody,
  response: { description: 'The updated session', schema: SessionSchema },
  errors: ['validation_error', 'plan_required', 'not_found', 'session_name_taken'],
}

export const updateSessionRoute = (ctx: GatewayContext) =>
  new Hono<AppEnv>().put(
    '/v1/session/update/:id',
    validate('param', SessionIdParam),
    validate('json', UpdateSessionBody),
    (c) => {
      const session = updateSession(ctx, {
        workspaceId: c.get('workspace').id,
        plan: c.get('plan'),
        sessionId: c.req.valid('param').id,
        input: c.req.valid('json'),
      })
      return c.json(session, 200)
    },
  )
