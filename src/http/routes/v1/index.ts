import { Hono } from 'hono'
import type { RouteSpec } from '../../../openapi/route'
import type { GatewayContext } from '../../../services/context'
import type { AppEnv } from '../../env'
import { bearerAuth } from '../../middleware/bearer-auth'
import { checkContactsRoute, checkContactsSpec } from './contacts/check'
import { sessionRoutes, sessionRouteSpecs } from './sessions'
import { getWorkspace, getWorkspaceSpec } from './workspace/get'

/** The specs the OpenAPI document is built from, one per /v1 route. */
export const v1RouteSpecs: RouteSpec[] = [...sessionRouteSpecs, checkContactsSpec, getWorkspaceSpec]

/** Every /v1 route, behind bearer auth. */
export function v1Routes(ctx: GatewayContext) {
  return new Hono<AppEnv>()
    .use('/v1/*', bearerAuth(ctx))
    .route('/', sessionRoutes(ctx))
    .route('/', checkContactsRoute(ctx))
    .route('/', getWorkspace(ctx))
}
