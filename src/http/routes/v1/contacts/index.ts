import type { GatewayContext } from '../../../../services/context'
import { endpoint, serveAll } from '../../endpoint'
import { inBody, inQuery } from '../../session-locator'
import { blockContactEndpoint, blockContactRoute } from './block'
import { blockedContactsEndpoint, blockedContactsRoute } from './blocked'
import { checkContactsEndpoint, checkContactsRoute } from './check'
import { contactProfileEndpoint, contactProfileRoute } from './profile'
import { subscribePresenceEndpoint, subscribePresenceRoute } from './presence-subscribe'
import { unsubscribePresenceEndpoint, unsubscribePresenceRoute } from './presence-unsubscribe'
import { unblockContactEndpoint, unblockContactRoute } from './unblock'

/** One line per route, in serving order. */
export const contactEndpoints = [
  endpoint(checkContactsRoute, inBody('sessionId'), checkContactsEndpoint),
  endpoint(blockedContactsRoute, inQuery('sessionId'), blockedContactsEndpoint),
  endpoint(contactProfileRoute, inQuery('sessionId'), contactProfileEndpoint),
  endpoint(blockContactRoute, inBody('sessionId'), blockContactEndpoint),
  endpoint(unblockContactRoute, inBody('sessionId'), unblockContactEndpoint),
  endpoint(subscribePresenceRoute, inBody('sessionId'), subscribePresenceEndpoint),
  endpoint(unsubscribePresenceRoute, inBody('sessionId'), unsubscribePresenceEndpoint),
] as const

export const contactRoutes = (ctx: GatewayContext) => serveAll(ctx, contactEndpoints)
