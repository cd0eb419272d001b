import type { GatewayContext } from '../../../../services/context'
import { endpoint, serveAll } from '../../endpoint'
import { inBody, inQuery } from '../../session-locator'
import { chatReadEndpoint, chatReadRoute } from './read'
import { listChatsEndpoint, listChatsRoute } from './all'
import { presenceEndpoint, presenceRoute } from './presence'

/** One line per route, in serving order. */
export const chatEndpoints = [
  endpoint(listChatsRoute, inQuery('sessionId'), listChatsEndpoint),
  endpoint(chatReadRoute, inBody('sessionId'), chatReadEndpoint),
  endpoint(presenceRoute, inBody('sessionId'), presenceEndpoint),
] as const

export const chatRoutes = (ctx: GatewayContext) => serveAll(ctx, chatEndpoints)
