import type { HttpContext } from '../../../context'
import { endpoint, serveAll } from '../../endpoint'
import { inQuery } from '../../session-locator'
import { eventSocketEndpoint, eventSocketRoute } from './socket/route'
import { eventStreamEndpoint, eventStreamRoute } from './stream'

/** One line per route. */
export const eventEndpoints = [
  endpoint(eventStreamRoute, inQuery('sessionId'), (ctx: HttpContext) => eventStreamEndpoint(ctx, ctx.eventStreams)),
] as const

/**
 * Routes that read their credential themselves (a browser's WebSocket cannot send
 * `Authorization`), mounted before /v1's bearer auth.
 */
export const eventSocketEndpoints = [endpoint(eventSocketRoute, inQuery('sessionId'), eventSocketEndpoint)] as const

export const eventRoutes = (ctx: HttpContext) => serveAll(ctx, eventEndpoints)
export const eventSocketRoutes = (ctx: HttpContext) => serveAll(ctx, eventSocketEndpoints)
