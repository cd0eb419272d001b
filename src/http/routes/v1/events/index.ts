import type { GatewayContext } from '../../../../services/context'
import { endpoint, serveAll } from '../../endpoint'
import { inQuery } from '../../session-locator'
import { eventStreamEndpoint, eventStreamRoute } from './stream'

/** One line per route. */
export const eventEndpoints = [
  endpoint(eventStreamRoute, inQuery('sessionId'), (ctx: GatewayContext) => eventStreamEndpoint(ctx, ctx.eventStreams)),
] as const

export const eventRoutes = (ctx: GatewayContext) => serveAll(ctx, eventEndpoints)
