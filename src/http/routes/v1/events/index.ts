import type { GatewayContext } from '../../../../services/context'
import { endpoint, serveAll } from '../../endpoint'
import { eventStreamEndpoint, eventStreamRoute } from './stream'

/** One line per route. */
export const eventEndpoints = [
  endpoint(eventStreamRoute, (ctx: GatewayContext) => eventStreamEndpoint(ctx, ctx.eventStreams)),
] as const

export const eventRoutes = (ctx: GatewayContext) => serveAll(ctx, eventEndpoints)
