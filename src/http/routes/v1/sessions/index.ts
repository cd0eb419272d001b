import { Hono } from 'hono'
import type { GatewayContext } from '../../../../services/context'
import type { AppEnv } from '../../../env'
import { connectSessionRoute, connectSessionSpec } from './connect'
import { disconnectSessionRoute, disconnectSessionSpec } from './disconnect'
import { listSessionsRoute, listSessionsSpec } from './list'
import { updateSessionRoute, updateSessionSpec } from './update'

export const sessionRouteSpecs = [connectSessionSpec, listSessionsSpec, updateSessionSpec, disconnectSessionSpec]

export const sessionRoutes = (ctx: GatewayContext) =>
  new Hono<AppEnv>()
    .route('/', connectSessionRoute(ctx))
    .route('/', listSessionsRoute(ctx))
    .route('/', updateSessionRoute(ctx))
    .route('/', disconnectSessionRoute(ctx))
