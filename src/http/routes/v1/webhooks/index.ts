import type { GatewayContext } from '../../../../services/context'
import { endpoint, serveAll } from '../../endpoint'
import { inBody, inQuery } from '../../session-locator'
import { listDeliveriesEndpoint, listDeliveriesRoute } from './list'
import { replayEndpoint, replayRoute } from './replay'
import { retryDeliveryEndpoint, retryDeliveryRoute } from './retry'

/** One line per route, in serving order. */
export const webhookEndpoints = [
  endpoint(listDeliveriesRoute, inQuery('sessionId'), listDeliveriesEndpoint),
  endpoint(retryDeliveryRoute, inQuery('sessionId'), retryDeliveryEndpoint),
  endpoint(replayRoute, inBody('sessionId'), replayEndpoint),
] as const

export const webhookRoutes = (ctx: GatewayContext) => serveAll(ctx, webhookEndpoints)
