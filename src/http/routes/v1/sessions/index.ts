import type { GatewayContext } from '../../../../services/context'
import { createRouter } from '../../../router'
import { connectSessionEndpoint } from './connect'
import { disconnectSessionEndpoint } from './disconnect'
import { listSessionsEndpoint } from './list'
import { updateOwnProfileEndpoint } from './profile'
import { sessionQrEndpoint } from './qr'
import { restartSessionEndpoint } from './restart'
import { updateSessionEndpoint } from './update'

/** One line per route file; `.route` also carries each route's OpenAPI declaration upward. */
export const sessionRoutes = (ctx: GatewayContext) =>
  createRouter()
    .route('/', connectSessionEndpoint(ctx))
    .route('/', listSessionsEndpoint(ctx))
    .route('/', updateSessionEndpoint(ctx))
    .route('/', disconnectSessionEndpoint(ctx))
    .route('/', restartSessionEndpoint(ctx))
    .route('/', sessionQrEndpoint(ctx))
    .route('/', updateOwnProfileEndpoint(ctx))
