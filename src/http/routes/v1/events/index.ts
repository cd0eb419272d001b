import type { HttpContext } from '../../../context'
import { endpoint, serveAll } from '../../endpoint'
import { eventStreamEndpoint, eventStreamRoute } from './stream'

/** One line per route. */
export const eventEndpoints = [
  endpoint(eventStreamRoute, (ctx: HttpContext) => eventStreamEndpoint(ctx, ctx.eventStreams)),
] as const

export const eventRoutes = (ctx: HttpContext) => serveAll(ctx, eventEndpoints)
