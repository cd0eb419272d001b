import { Hono } from 'hono'
import type { RouteSpec } from '../../../../openapi/route'
import { SessionListResponse } from '../../../../schemas/session'
import type { GatewayContext } from '../../../../services/context'
import { listSessions } from '../../../../services/sessions/list'
import type { AppEnv } from '../../../env'

export const listSessionsSpec: RouteSpec = {
  method: 'get',
  path: '/v1/session/all',
  summary: 'List the sessions of the workspace',
  description: 'Every session of the caller’s workspace, whatever its status; `connected` tells which are online.',
  tag: 'Sessions',
  response: { description: 'The sessions', schema: SessionListResponse },
}

export const listSessionsRoute = (ctx: GatewayContext) =>
  new Hono<AppEnv>().get('/v1/session/all', (c) => c.json(listSessions(ctx, { workspaceId: c.get('workspace').id }), 200))
