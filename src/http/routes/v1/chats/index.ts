import type { GatewayContext } from '../../../../services/context'
import { endpoint, serveAll } from '../../endpoint'
import { chatReadEndpoint, chatReadRoute } from './read'
import { listChatsEndpoint, listChatsRoute } from './all'
import { presenceEndpoint, presenceRoute } from './presence'

/** One line per route, in serving order. */
export const chatEndpoints = [
  endpoint(listChatsRoute, listChatsEndpoint),
  endpoint(chatReadRoute, chatReadEndpoint),
  endpoint(presenceRoute, presenceEndpoint),
] as const

export const chatRoutes = (ctx: GatewayContext) => serveAll(ctx, chatEndpoints)
