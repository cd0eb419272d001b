import type { GatewayContext } from '../../../../services/context'
import { endpoint, serveAll } from '../../endpoint'
import { inBody, inQuery } from '../../session-locator'
import { listChannelsEndpoint, listChannelsRoute } from './all'
import { followChannelEndpoint, followChannelRoute } from './follow'
import { channelInfoEndpoint, channelInfoRoute } from './info'
import { channelMessagesEndpoint, channelMessagesRoute } from './messages'
import { unfollowChannelEndpoint, unfollowChannelRoute } from './unfollow'

/** One line per route, in serving order. */
export const channelEndpoints = [
  endpoint(listChannelsRoute, inQuery('sessionId'), listChannelsEndpoint),
  endpoint(channelInfoRoute, inQuery('sessionId'), channelInfoEndpoint),
  endpoint(followChannelRoute, inBody('sessionId'), followChannelEndpoint),
  endpoint(unfollowChannelRoute, inBody('sessionId'), unfollowChannelEndpoint),
  endpoint(channelMessagesRoute, inQuery('sessionId'), channelMessagesEndpoint),
] as const

export const channelRoutes = (ctx: GatewayContext) => serveAll(ctx, channelEndpoints)
