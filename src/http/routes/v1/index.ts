import type { GatewayContext } from '../../../services/context'
import { bearerAuth } from '../../middleware/bearer-auth'
import { jsonBody } from '../../middleware/json-body'
import { rateLimit } from '../../middleware/rate-limit'
import { createRouter } from '../../router'
import { checkContactsEndpoint } from './contacts/check'
import { messageRoutes } from './messages'
import { sessionRoutes } from './sessions'
import { webhookRoutes } from './webhooks'
import { getWorkspaceEndpoint } from './workspace/get'

/**
 * Every /v1 route, behind bearer auth. The returned app's `openAPIRegistry` holds each
 * route's declaration: the OpenAPI document is built from it, so no route can be left out.
 */
export function v1Routes(ctx: GatewayContext) {
  const v1 = createRouter()
  v1.use('/v1/*', bearerAuth(ctx))
  // After auth, so an invalid credential never gets a counter of its own.
  v1.use('/v1/*', rateLimit(ctx.config.rateLimitPerMinute))
  v1.use('/v1/*', jsonBody())
  return v1
    .route('/', sessionRoutes(ctx))
    .route('/', messageRoutes(ctx))
    .route('/', checkContactsEndpoint(ctx))
    .route('/', getWorkspaceEndpoint(ctx))
    .route('/', webhookRoutes(ctx))
}
