import { loadConfig, type GatewayConfig } from '../config'
import { routeConsoleToLogger } from '../console-capture'
import { closeDatabase, openDatabase } from '../db/database'
import { lockDatabaseFile } from '../db/lock'
import { createGateway, type Gateway } from '../gateway'
import { createLogger, type Logger } from '../logger'
import { serve, type RunningServer } from '../runtime/serve'
import { createApiKey } from '../services/api-keys'
import type { CoreContext } from '../services/context'
import { createWorkspace, listWorkspaces } from '../services/workspaces'
import { startupNotice } from './startup-notice'

/**
 * On the very first start there is no way in yet: create workspace "default" and show its key
 * once. Answers whether it did.
 */
function bootstrapFirstWorkspace(ctx: CoreContext): boolean {
  if (listWorkspaces(ctx).length > 0) return false
  createWorkspace(ctx, { name: 'default', plan: 'free' })
  const { key } = createApiKey(ctx, { workspace: 'default' })
  process.stdout.write(
    `\nFirst start: created workspace "default" on the free plan.\n` +
      `API key (shown only this once, store it now): ${key}\n\n`,
  )
  return true
}

export interface RunOptions {
  config: GatewayConfig
  logger: Logger
  /** Runs before the server listens (bootstrap, dev hooks). */
  prepare?(gateway: Gateway): void | Promise<void>
  /** Runs after the gateway stopped, before the process exits. */
  cleanup?(): Promise<void>
}

/**
 * Takes the database file (a second gateway on it is refused), opens it, builds the gateway,
 * listens, reconnects stored sessions, and on SIGTERM/SIGINT fails the queued paced sends,
 * closes the server (a few seconds for requests under way), the WhatsApp connections (without
 * logging out) and the database, in that order.
 */
export async function runGateway({
  config,
  logger,
  prepare,
  cleanup,
}: RunOptions): Promise<{ gateway: Gateway; server: RunningServer }> {
  // Before the file is touched: a second gateway on it stops here (see lock.ts).
  const lock = await lockDatabaseFile(config.databasePath)
  const database = await openDatabase(config.databasePath, {
    checkpointInBackground: true,
    onCheckpointError: (error) =>
      logger.warn({ error }, 'background WAL checkpoints stopped: commits run them again (slower, nothing lost)'),
  })
  const gateway = createGateway({ database, config, logger })

  // Listen before anything is created (the first API key): a busy port then stops the start
  // with one line, and nothing half-made is left behind.
  const server = await serve({
    fetch: gateway.app.fetch,
    port: config.port,
    hostname: config.host,
    keepAliveTimeoutMs: config.keepAliveTimeoutMs,
  }).catch((error: unknown) => {
    closeDatabase(database)
    lock?.release()
    throw listenFailure(error, config)
  })
  const base = baseUrl(config, server.port)
  logger.info(
    {
      host: config.host,
      port: server.port,
      database: config.databasePath,
      api: `${base}/v1`,
      docs: `${base}/docs`,
      panel: `${base}/panel`,
    },
    'listening',
  )
  if (config.simulatorUrl) {
    logger.warn(
      { simulator: config.simulatorUrl },
      'WA_SIMULATOR is set: sessions connect to the simulator, NOT to WhatsApp',
    )
  }
  // Signals are handled from the moment the server listens: a stop during the start-up (docker
  // stop right after docker run) waits for the start to finish, then stops in order, instead of
  // Node's default of dying mid-way.
  const ready = (async () => {
    await prepare?.(gateway)
    await gateway.start()
  })()

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'shutting down')
    // Whatever hangs, exit on our terms before systemd's TimeoutStopSec (20 s) kills the process.
    setTimeout(() => {
      logger.error({ afterMs: STOP_DEADLINE_MS }, 'stopping took too long: exiting now')
      process.exit(1)
    }, STOP_DEADLINE_MS).unref()
    // Queued paced sends answer 409 now rather than being handed over while the server drains,
    // and event streams end (they would hold close() open for ever).
    await ready.catch(() => {})
    gateway.beginStop()
    const closed = server.close() // stops accepting; waits for requests under way
    // Requests under way get a few seconds; a hand-over still waiting on WhatsApp then fails as
    // the connections close (409, its record dropped), and its answer lets close() finish.
    await settledWithin(closed, STOP_DRAIN_MS)
    await gateway.stop()
    await settledWithin(closed, STOP_DRAIN_MS)
    closeDatabase(database)
    lock?.release()
    await cleanup?.()
    logger.info('stopped')
    process.exit(0)
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
  await ready
  return { gateway, server }
}

/** The URL a person on this machine opens: a wildcard host is reached as localhost. */
const baseUrl = (config: GatewayConfig, port: number) =>
  `http://${config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host}:${port}`

/** How long a stop waits for requests under way, before closing WhatsApp connections and again after. */
const STOP_DRAIN_MS = 3_000
/** A stop that takes longer (something hangs) exits with status 1, below the unit's TimeoutStopSec=20. */
const STOP_DEADLINE_MS = 15_000

/** Waits for `work` at most `ms`. */
const settledWithin = (work: Promise<unknown>, ms: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    void work.finally(() => {
      clearTimeout(timer)
      resolve()
    })
  })

/** A port that cannot be listened on is the operator's to fix: one line saying which and why. */
export class ListenError extends Error {
  override readonly name = 'ListenError'
}

function listenFailure(error: unknown, config: GatewayConfig): Error {
  const code = (error as { code?: unknown })?.code
  if (code === 'EADDRINUSE')
    return new ListenError(
      `Port ${config.port} on ${config.host} is already in use: stop what listens there, or set PORT`,
    )
  if (code === 'EACCES')
    return new ListenError(
      `Not allowed to listen on port ${config.port} on ${config.host}: choose a port above 1023, or set PORT`,
    )
  if (code === 'EADDRNOTAVAIL') return new ListenError(`HOST ${config.host} is not an address of this machine`)
  return error instanceof Error ? error : new Error(String(error))
}

export async function serveCommand(): Promise<void> {
  const config = loadConfig(process.env)
  const logger = createLogger(config.logLevel)
  // Before anything loads Baileys: whatever a dependency prints goes into the log, redacted.
  const restoreConsole = routeConsoleToLogger(logger)
  try {
    let firstStart = false
    const { gateway, server } = await runGateway({
      config,
      logger,
      prepare: (gateway) => {
        firstStart = bootstrapFirstWorkspace(gateway.context)
      },
    })
    process.stderr.write(
      startupNotice(baseUrl(config, server.port), firstStart ? undefined : listWorkspaces(gateway.context)),
    )
  } catch (error) {
    restoreConsole() // the command line prints why the start failed (a busy port) to the operator
    throw error
  }
}
