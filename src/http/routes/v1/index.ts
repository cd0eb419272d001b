import type { GatewayContext } from '../../../services/context'
import { bearerAuth } from '../../middleware/bearer-auth'
import { createRouter } from '../../router'
import { checkContactsEndpoint } from './contacts/check'
import { messageRoutes } from './messages'
import { sessionRoutes } from './sessions'
import { getWorkspaceEndpoint } from './workspace/get'

/**
 * Every /v1 route, behind bearer auth. The returned app's `openAPIRegistry` holds each
 * route's declaration: the OpenAPI document is built from it, so no route can be left out.
 */
export function v1Routes(ctx: GatewayContext) {
  const v1 = createRouter()
  v1.use('/v1/*', bearerAuth(ctx))
  return v1
    .route('/', sessionRoutes(ctx))
    .route('/', messageRoutes(ctx))
    .route('/', checkContactsEndpoint(ctx))
    .route('/', getWorkspaceEndpoint(ctx))
}
