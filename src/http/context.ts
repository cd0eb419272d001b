import type { GatewayContext } from '../services/context'
import type { GatewayUpgradeWebSocket } from '../runtime/websocket'
import type { EventStreams } from './event-streams'

/** What the HTTP app's routes receive: the services' context and what only HTTP holds. */
export interface HttpContext extends GatewayContext {
  /** Open GET /v1/events streams: capped per workspace, ended when the gateway stops. */
  eventStreams: EventStreams
  /** Upgrades GET /v1/events/ws on the server the request came through. */
  upgradeWebSocket: GatewayUpgradeWebSocket
}
