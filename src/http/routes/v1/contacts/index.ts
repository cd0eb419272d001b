import type { GatewayContext } from '../../../../services/context'
import { endpoint, serveAll } from '../../endpoint'
import { blockContactEndpoint, blockContactRoute } from './block'
import { blockedContactsEndpoint, blockedContactsRoute } from './blocked'
import { checkContactsEndpoint, checkContactsRoute } from './check'
import { contactProfileEndpoint, contactProfileRoute } from './profile'
import { unblockContactEndpoint, unblockContactRoute } from './unblock'

/** One line per route, in serving order. */
export const contactEndpoints = [
  endpoint(checkContactsRoute, checkContactsEndpoint),
  endpoint(blockedContactsRoute, blockedContactsEndpoint),
  endpoint(contactProfileRoute, contactProfileEndpoint),
  endpoint(blockContactRoute, blockContactEndpoint),
  endpoint(unblockContactRoute, unblockContactEndpoint),
] as const

export const contactRoutes = (ctx: GatewayContext) => serveAll(ctx, contactEndpoints)
