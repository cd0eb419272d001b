import type { GatewayContext } from '../../../../services/context'
import { createRouter } from '../../../router'
import { listDeliveriesEndpoint } from './list'
import { replayEndpoint } from './replay'
import { retryDeliveryEndpoint } from './retry'

export const webhookRoutes = (ctx: GatewayContext) =>
  createRouter()
    .route('/', listDeliveriesEndpoint(ctx))
    .route('/', retryDeliveryEndpoint(ctx))
    .route('/', replayEndpoint(ctx))
