import type { GatewayContext } from '../../../../services/context'
import { endpoint, serveAll } from '../../endpoint'
import { listDeliveriesEndpoint, listDeliveriesRoute } from './list'
import { replayEndpoint, replayRoute } from './replay'
import { retryDeliveryEndpoint, retryDeliveryRoute } from './retry'

/** One line per route, in serving order. */
export const webhookEndpoints = [
  endpoint(listDeliveriesRoute, listDeliveriesEndpoint),
  endpoint(retryDeliveryRoute, retryDeliveryEndpoint),
  endpoint(replayRoute, replayEndpoint),
] as const

export const webhookRoutes = (ctx: GatewayContext) => serveAll(ctx, webhookEndpoints)
