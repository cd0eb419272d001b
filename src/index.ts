export {
  createGateway,
  baileysEngine,
  type Gateway,
  type PublicContext,
  type GatewayOptions,
  type EngineFactory,
  type EngineFactoryDeps,
} from './gateway'
export type { WhatsAppEngine, SessionHandle, EngineFact } from './engine/whatsapp/port'
export type { GatewayEvents } from './events/bus'
export { loadConfig, resolveConfig, ConfigError, type GatewayConfig, type PlanName, type PlanLimits } from './config'
export { openDatabase, closeDatabase, type GatewayDatabase } from './db/database'
export { lockDatabaseFile, DatabaseInUseError, type DatabaseLock } from './db/lock'
export { createLogger, type Logger } from './logger'
export { routeConsoleToLogger } from './console-capture'
export type { Clock } from './clock'
export type { AppEnv } from './http/env'
export { GatewayError, type ErrorCode } from './errors'
/** GET /v1/events/ws on your own Node server: acceptWebSockets(server, app.fetch). On Bun: hono/bun's `websocket`. */
export { acceptWebSockets } from './runtime/node-websocket'
export { MAX_CLIENT_FRAME_BYTES } from './runtime/client-frames'
export type { GatewayUpgradeWebSocket } from './runtime/websocket'
import type { HttpApp } from './http/app'

/** The app's type, for `hc<AppType>()` typed clients. */
export type AppType = HttpApp
