import { systemClock, type Clock } from './clock'
import { resolveConfig, type GatewayConfig } from './config'
import type { GatewayDatabase } from './db/database'
import { migrate } from './db/migrate'
import { createHttpApp, type HttpApp } from './http/app'
import { createLogger, type Logger } from './logger'
import type { ServiceContext } from './services/context'

export interface GatewayOptions {
  /** An open database (see openDatabase); migrations are applied to it here. */
  database: GatewayDatabase
  /** Overrides of the defaults; loadConfig(process.env) gives the environment's. */
  config?: Partial<GatewayConfig>
  logger?: Logger
  clock?: Clock
}

export interface Gateway {
  app: HttpApp
  config: GatewayConfig
  context: ServiceContext
  /** Starts background work (reconnecting stored sessions). */
  start(): Promise<void>
  /** Stops background work and closes connections without logging them out. */
  stop(): Promise<void>
}

/**
 * Builds a gateway from its dependencies. Nothing lives at module level: two gateways in
 * one process share nothing but the code.
 */
export function createGateway(options: GatewayOptions): Gateway {
  const config = resolveConfig(options.config)
  const logger = options.logger ?? createLogger(config.logLevel)
  const context: ServiceContext = {
    db: options.database,
    clock: options.clock ?? systemClock,
    logger,
    config,
  }
  const applied = migrate(context.db)
  if (applied > 0) logger.info({ applied }, 'database migrations applied')

  return {
    app: createHttpApp(context),
    config,
    context,
    async start() {},
    async stop() {},
  }
}
