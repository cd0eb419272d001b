import { loadConfig } from '../config'
import { closeDatabase, openDatabase } from '../db/database'
import { createGateway } from '../gateway'
import { createLogger } from '../logger'
import { serve } from '../runtime/serve'
import { createApiKey } from '../services/api-keys'
import type { ServiceContext } from '../services/context'
import { createWorkspace, listWorkspaces } from '../services/workspaces'

/** On the very first start there is no way in yet: create workspace "default" and show its key once. */
function bootstrapFirstWorkspace(ctx: ServiceContext): void {
  if (listWorkspaces(ctx).length > 0) return
  createWorkspace(ctx, { name: 'default', plan: 'free' })
  const { key } = createApiKey(ctx, { workspace: 'default' })
  process.stdout.write(
    `\nFirst start: created workspace "default" on the free plan.\n` +
      `API key (shown only this once, store it now): ${key}\n\n`,
  )
}

export async function serveCommand(): Promise<void> {
  const config = loadConfig(process.env)
  const logger = createLogger(config.logLevel)
  const database = await openDatabase(config.databasePath)
  const gateway = createGateway({ database, config, logger })
  bootstrapFirstWorkspace(gateway.context)

  const server = await serve({ fetch: gateway.app.fetch, port: config.port, hostname: config.host })
  logger.info({ host: config.host, port: server.port, database: config.databasePath }, 'listening')
  await gateway.start()

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'shutting down')
    await server.close()
    await gateway.stop()
    closeDatabase(database)
    logger.info('stopped')
    process.exit(0)
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}
