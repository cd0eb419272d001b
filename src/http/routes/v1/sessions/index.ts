import type { GatewayContext } from '../../../../services/context'
import { endpoint, serveAll } from '../../endpoint'
import { connectSessionEndpoint, connectSessionRoute } from './connect'
import { disconnectSessionEndpoint, disconnectSessionRoute } from './disconnect'
import { listSessionsEndpoint, listSessionsRoute } from './list'
import { restartSessionEndpoint, restartSessionRoute } from './restart'
import { sessionQrEndpoint, sessionQrRoute } from './qr'
import { updateOwnProfileEndpoint, updateOwnProfileRoute } from './profile'
import { updateSessionEndpoint, updateSessionRoute } from './update'
import { createSessionWebhookEndpoint, createSessionWebhookRoute } from './webhooks-create'
import { deleteSessionWebhookEndpoint, deleteSessionWebhookRoute } from './webhooks-delete'
import { listSessionWebhooksEndpoint, listSessionWebhooksRoute } from './webhooks-list'
import { updateSessionWebhookEndpoint, updateSessionWebhookRoute } from './webhooks-update'

/** One line per route, in serving order; each pairs a route's declaration with what serves it. */
export const sessionEndpoints = [
  endpoint(connectSessionRoute, connectSessionEndpoint),
  endpoint(listSessionsRoute, listSessionsEndpoint),
  endpoint(updateSessionRoute, updateSessionEndpoint),
  endpoint(disconnectSessionRoute, disconnectSessionEndpoint),
  endpoint(restartSessionRoute, restartSessionEndpoint),
  endpoint(sessionQrRoute, sessionQrEndpoint),
  endpoint(updateOwnProfileRoute, updateOwnProfileEndpoint),
  endpoint(createSessionWebhookRoute, createSessionWebhookEndpoint),
  endpoint(listSessionWebhooksRoute, listSessionWebhooksEndpoint),
  endpoint(updateSessionWebhookRoute, updateSessionWebhookEndpoint),
  endpoint(deleteSessionWebhookRoute, deleteSessionWebhookEndpoint),
] as const

export const sessionRoutes = (ctx: GatewayContext) => serveAll(ctx, sessionEndpoints)
