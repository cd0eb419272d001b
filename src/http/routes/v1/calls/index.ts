import type { GatewayContext } from '../../../../services/context'
import { endpoint, serveAll } from '../../endpoint'
import { inBody } from '../../session-locator'
import { rejectCallEndpoint, rejectCallRoute } from './reject'

/** One line per route. */
export const callEndpoints = [endpoint(rejectCallRoute, inBody('sessionId'), rejectCallEndpoint)] as const

export const callRoutes = (ctx: GatewayContext) => serveAll(ctx, callEndpoints)
