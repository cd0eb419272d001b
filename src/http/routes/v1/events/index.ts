import type { HttpContext } from '../../../context'
import { endpoint, serveAll } from '../../endpoint'
import { inQuery } from '../../session-locator'
import { eventSocketEndpoint, eventSocketRoute } from './socket/route'
import { eventStreamEndpoint, eventStreamRoute } from './stream'

/** One line per route. */
export const eventEndpoints = [
  endpoint(eventStreamRoute, inQuery('sessionId'), (ctx: HttpContext) => eventStreamEndpoint(ctx, ctx.eventStreams)),
  endpoint(eventSocketRoute, inQuery('sessionId'), eventSocketEndpoint),
] as const

export const eventRoutes = (ctx: HttpContext) => serveAll(ctx, eventEndpoints)
