import { createRoute } from '@hono/zod-openapi'
import { bearerSecurity, errorResponses, jsonResponse } from '../../../../openapi/route'
import { SessionListResponse } from '../../../../schemas/session'
import type { GatewayContext } from '../../../../services/context'
import { listSessions } from '../../../../services/sessions/list'
import { jsonOnce } from '../../../../perf/json-once'
import { createRouter } from '../../../router'

export const listSessionsRoute = createRoute({
  operationId: 'listSessions',
  method: 'get',
  path: '/v1/session/all',
  tags: ['Sessions'],
  summary: 'List the sessions of the workspace',
  description: 'Every session of the caller’s workspace, whatever its status; `connected` tells which are online.',
  security: bearerSecurity,
  responses: {
    200: jsonResponse(SessionListResponse, 'The sessions'),
    ...errorResponses([]),
  },
})

export const listSessionsEndpoint = (ctx: GatewayContext) => {
  // A list is served from the gateway's cache until it changes, frozen: send its text again.
  const json = jsonOnce()
  return createRouter().openapi(listSessionsRoute, (c) =>
    json(c, listSessions(ctx, { workspaceId: c.get('workspace').id })),
  )
}
