import { Hono } from 'hono'
import type { RouteSpec } from '../../../openapi/route'
import type { ServiceContext } from '../../../services/context'
import type { AppEnv } from '../../env'
import { bearerAuth } from '../../middleware/bearer-auth'
import { getWorkspace, getWorkspaceSpec } from './workspace/get'

/** Every /v1 route, behind bearer auth, and the specs the OpenAPI document is built from. */
export const v1RouteSpecs: RouteSpec[] = [getWorkspaceSpec]

export function v1Routes(ctx: ServiceContext) {
  return new Hono<AppEnv>().use('/v1/*', bearerAuth(ctx)).route('/', getWorkspace(ctx))
}
