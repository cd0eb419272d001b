import type { Clock } from '../clock'
import type { GatewayConfig } from '../config'
import type { GatewayDatabase } from '../db/database'
import type { Logger } from '../logger'

/** What every service verb receives: the gateway's dependencies, never HTTP. */
export interface ServiceContext {
  db: GatewayDatabase
  clock: Clock
  logger: Logger
  config: GatewayConfig
}
