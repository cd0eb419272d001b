import { systemClock, type Clock } from './clock'
import { resolveConfig, type GatewayConfig } from './config'
import { sqliteAuthStore } from './db/auth-store'
import type { GatewayDatabase } from './db/database'
import { databaseFile } from './db/file'
import { migrate } from './db/migrate'
import type { BaileysEngineDeps } from './engine/whatsapp/engine'
import { lazyEngine } from './engine/whatsapp/lazy-engine'
import {
  createWebVersionKeeper,
  fetchFromWhatsApp,
  type WaVersionFetcher,
  type WebVersionKeeper,
} from './engine/whatsapp/socket/web-version'
import type { AuthStore } from './engine/whatsapp/port/auth-store'
import type { GroupInfo } from './engine/whatsapp/port/groups'
import type { WhatsAppEngine } from './engine/whatsapp/port'
import { EventBus } from './events/bus'
import { createHttpApp, type HttpApp } from './http/app'
import type { GatewayUpgradeWebSocket } from './runtime/websocket'
import { createLogger, type Logger } from './logger'
import { onGroupCommitError } from './perf/group-commit'
import { noMetrics } from './metrics/port'
import { createPrometheusMetrics } from './metrics/prometheus'
import type { GatewayContext } from './services/context'
import { createMediaTools } from './media/media-tools'
import { createGuardedLinkPreviewer } from './media/link-preview/guarded'
import type { LinkPreviewer } from './media/link-preview/previewer'
import { defaultResolver, type HostResolver } from './net/host-resolver'
import { interfaceAddresses } from './net/interface-addresses'
import { createProxyGuard, type ProxyGuard } from './net/proxy-guard'
import { applyEngineFact } from './services/engine-facts'
import type { MediaTools } from './media/port'
import { forgetContactNames } from './services/contacts/names'
import { forgetPresenceSubscriptions } from './services/contacts/presence'
import { forgetLabels } from './services/labels/store'
import { forgetGroups, storedGroup } from './services/groups/store'
import { storedPayload } from './services/messages/records/records'
import { failUnsentSends } from './services/messages/send/recovery'
import { createSendQueues } from './services/messages/send/send-queue'
import { createInFlightSends } from './services/messages/send/in-flight-sends'
import { createSessionListCache } from './services/sessions/list-cache'
import { gatewayStopping, leftConnected } from './services/messages/send/send-turn'
import { startMaintenance } from './services/maintenance'
import { restoreSessions } from './services/sessions/restore'
import { forgetHistoryChunks } from './services/history/chunks'
import { stopHistoryImports, wakeHistoryImports } from './services/history/import'
import { createHistoryImports } from './services/history/imports'
import { createCredentialCache } from './services/credential-cache'
import { createStatementCache } from './perf/prepared'
import { createReadMemo } from './perf/read-memo'
import { createWebhookDispatcher } from './webhooks/dispatcher'
import { createOutbox } from './webhooks/outbox'
import { createWebhookSender, type EventSink, type WebhookSender } from './webhooks/sender'
import { createChatwootSink } from './services/chatwoot/sink'
import { createMediaStore, type MediaStore } from './media/store'
import { createInboundMedia } from './services/media/runtime'

export interface EngineFactoryDeps {
  db: GatewayDatabase
  /** Sessions' WhatsApp credentials and Signal keys, in `db` (prepared statements, built once). */
  authStore: AuthStore
  logger: Logger
  config: GatewayConfig
  /** DNS for user-supplied URLs (the gateway's resolver). */
  resolver: HostResolver
  /** How a workspace's proxy host is checked (and resolved, then pinned) before each connection. */
  proxyGuard: ProxyGuard
  /** The WhatsApp Web version new sockets announce. */
  versions: WebVersionKeeper
  /** A sent message's stored proto, for Baileys' retries. */
  storedMessage(sessionId: string, messageId: string): Uint8Array | undefined
  /** A group as the store has it, for Baileys' group sends (no metadata query per send). */
  groupMetadata(sessionId: string, groupJid: string): GroupInfo | undefined
}

export type EngineFactory = (deps: EngineFactoryDeps) => WhatsAppEngine

export interface GatewayOptions {
  /** An open database (see openDatabase); migrations are applied to it here. */
  database: GatewayDatabase
  /** Overrides of the defaults; loadConfig(process.env) gives the environment's. */
  config?: Partial<GatewayConfig>
  logger?: Logger
  clock?: Clock
  /** The WhatsApp side; Baileys by default. */
  engine?: EngineFactory
  /** Fetching and converting media; the guarded fetcher and ffmpeg by default. */
  media?: MediaTools
  /** Texts' link previews; by default over the guarded fetcher with `resolver` and the media tools' thumbnails. */
  linkPreviews?: LinkPreviewer
  /** DNS for user-supplied URLs: webhook URLs when set and at every delivery (tests answer chosen addresses); the system resolver by default. */
  resolver?: HostResolver
  /** Posts webhooks; the guarded, address-pinned sender by default. */
  webhookSender?: WebhookSender
  /** Where received files are kept; by default the operator's MEDIA_STORE. null: none, each download fetched from WhatsApp (the edge without a bucket). */
  mediaStore?: MediaStore | null
  /** Applies the embedded migrations; drizzle's sync migrator by default (a Durable Object needs transactionSync). */
  migrate?: (db: GatewayDatabase) => number
  /**
   * Learns the current WhatsApp Web version: Baileys' fetchLatestWaWebVersion by default, none
   * (the bundled version) with WA_SIMULATOR; `null` turns it off. Never called with WA_VERSION.
   */
  fetchWaVersion?: WaVersionFetcher | null
  /**
   * Upgrades GET /v1/events/ws. By default the server the request came through: Bun.serve with
   * hono/bun's `websocket` handler, or a Node server with acceptWebSockets (both wired by the
   * gateway's own serve). An embedder may pass @hono/node-ws's upgradeWebSocket instead.
   */
  upgradeWebSocket?: GatewayUpgradeWebSocket
}

/**
 * What an embedding app may use of a running gateway besides its HTTP app: the store, the
 * settings, the logs and the in-process events. Caches, queues and the engine stay inside.
 */
export type PublicContext = Pick<GatewayContext, 'db' | 'config' | 'clock' | 'logger' | 'events'>

export interface Gateway {
  app: HttpApp
  config: GatewayConfig
  context: PublicContext
  /**
   * Starts webhook delivery and marks every stored session that has credentials `connecting`;
   * they reconnect in the background, RESTORE_CONCURRENCY at a time.
   */
  start(): Promise<void>
  /**
   * Ends open event streams (GET /v1/events), so that an HTTP server's close() need not wait
   * for them: call it as the server starts closing. stop() ends them too.
   */
  endStreams(): void
  /**
   * The stop's first step, as the server starts closing: ends event streams and fails every paced
   * send waiting its turn, and every one after (409, nothing recorded), so that the server's
   * close() waits only for work under way, not for turns that may be a minute away. stop() does it too.
   */
  beginStop(): void
  /** Ends event streams, closes every WhatsApp connection without logging it out, then stops webhook delivery. */
  stop(): Promise<void>
}

/** What the Baileys engine is built from, whether it loads at start or on first use. */
export const baileysEngineDeps = ({
  authStore,
  logger,
  config,
  proxyGuard,
  versions,
  storedMessage,
  groupMetadata,
}: EngineFactoryDeps): BaileysEngineDeps => ({
  authStore,
  logger: logger.child({ component: 'whatsapp' }),
  logLevel: logger.level,
  simulatorUrl: config.simulatorUrl,
  versions,
  proxyGuard,
  timing: {
    qrTimeoutMs: config.qrTimeoutMs,
    queryTimeoutMs: config.queryTimeoutMs,
    backoff: config.reconnect,
    keepAliveIntervalMs: config.keepAliveIntervalMs,
  },
  storedMessage,
  groupMetadata,
})

/** Baileys, loaded when the first session opens (see lazyEngine). */
export const baileysEngine: EngineFactory = (deps) =>
  lazyEngine(deps.authStore, deps.versions, async () =>
    (await import('./engine/whatsapp/engine')).createBaileysEngine(baileysEngineDeps(deps)),
  )

/**
 * Builds a gateway from its dependencies. Nothing lives at module level: two gateways in
 * one process share nothing but the code.
 */
export function createGateway(options: GatewayOptions): Gateway {
  return assembleGateway(options).gateway
}

/**
 * createGateway, also answering the whole service context (caches and queues included): for
 * the project's own runtimes, tests and benches, never published.
 */
export function assembleGateway(options: GatewayOptions): { gateway: Gateway; context: GatewayContext } {
  const config = resolveConfig(options.config)
  const logger = options.logger ?? createLogger(config.logLevel)
  const db = options.database
  const applied = (options.migrate ?? migrate)(db)
  if (applied > 0) logger.info({ applied }, 'database migrations applied')
  // A group commit failing at the check phase (perf/group-commit.ts): its writes are rolled
  // back, and what they recorded comes again (no receipt was sent for it).
  onGroupCommitError(db, (error) => logger.error({ err: error }, 'a group commit failed; its writes were rolled back'))

  const clock = options.clock ?? systemClock
  const resolver = options.resolver ?? defaultResolver
  const proxyGuard = createProxyGuard({
    resolver,
    allowPrivateAddresses: config.allowPrivateAddresses,
    allowedNetworks: config.proxyAllowedNetworks,
    ownAddresses: interfaceAddresses,
  })
  const versions = createWebVersionKeeper({
    pinned: config.waVersion,
    fetcher:
      options.fetchWaVersion === undefined
        ? config.simulatorUrl
          ? undefined
          : fetchFromWhatsApp
        : (options.fetchWaVersion ?? undefined),
    timeoutMs: config.waVersionFetchTimeoutMs,
    logger: logger.child({ component: 'whatsapp' }),
  })
  const statements = createStatementCache(db)
  const engine = (options.engine ?? baileysEngine)({
    db,
    authStore: sqliteAuthStore({ db, statements }),
    logger,
    config,
    resolver,
    proxyGuard,
    versions,
    storedMessage: (sessionId, messageId) => storedPayload(db, sessionId, messageId),
    groupMetadata: (sessionId, groupJid) => storedGroup(db, sessionId, groupJid),
  })
  const events = new EventBus((error, event) => logger.error({ err: error, event }, 'event listener failed'))
  // One registry per gateway, built only when the operator enabled /metrics.
  const prometheus = config.metricsToken ? createPrometheusMetrics({ db, events }) : undefined
  const metrics = prometheus?.metrics ?? noMetrics
  // Integrations' sinks need the context the dispatcher is part of: bound once it exists (below).
  let chatwootSink: EventSink | undefined
  const webhooks = createWebhookDispatcher({
    db,
    statements,
    clock,
    logger,
    config,
    metrics,
    sinks: { chatwoot: { deliver: (event, signal) => chatwootSink!.deliver(event, signal) } },
    sender:
      options.webhookSender ??
      createWebhookSender({
        allowHttp: config.webhookAllowHttp,
        allowPrivateAddresses: config.allowPrivateAddresses,
        timeoutMs: config.webhooks.timeoutMs,
        endpointConcurrency: config.webhooks.endpointConcurrency,
        resolver,
      }),
  })
  const reads = createReadMemo(db.$client)
  const media = options.media ?? createMediaTools(config)
  const context: GatewayContext = {
    db,
    clock,
    logger,
    config,
    engine,
    events,
    media,
    linkPreviews:
      options.linkPreviews ??
      createGuardedLinkPreviewer({
        allowPrivateAddresses: config.allowPrivateAddresses,
        resolver,
        thumbnail: (bytes) => media.linkThumbnail(bytes),
      }),
    resolver,
    proxyGuard,
    inFlightSends: createInFlightSends(),
    sendQueues: createSendQueues(config),
    outbox: createOutbox({ db, statements, clock, config, notifier: webhooks }),
    statements,
    credentials: createCredentialCache({ db, clock, logger, reads, statements }),
    reads,
    sessionLists: createSessionListCache(),
    metrics,
    inboundMedia: createInboundMedia(
      options.mediaStore === null ? undefined : (options.mediaStore ?? createMediaStore(config, databaseFile(db))),
    ),
    // Unlinked: the account's groups and its contacts' names are not the session's any more.
    unlinkHooks: [forgetGroups, forgetContactNames, forgetHistoryChunks, forgetPresenceSubscriptions, forgetLabels],
    history: createHistoryImports(),
  }
  chatwootSink = createChatwootSink(context)
  engine.onFact((fact) => applyEngineFact(context, fact))
  // Sends waiting their turn fail (409, nothing recorded) as soon as their session is not connected.
  context.events.on('session.status', ({ sessionId, status }) => {
    if (status !== 'connected') context.sendQueues.cancel(sessionId, leftConnected(status))
  })

  let stopMaintenance: (() => void) | undefined
  const stopping = new AbortController()
  let restoring: Promise<void> | undefined
  const http = createHttpApp(context, prometheus, options.upgradeWebSocket)
  const gateway: Gateway = {
    app: http.app,
    config,
    context,
    async start() {
      logger.info(
        { waVersion: versions.info().version, source: versions.info().source, fetch: versions.fetches },
        versions.fetches
          ? 'WhatsApp Web version: asking WhatsApp for the current one as Baileys loads (first session)'
          : 'WhatsApp Web version in use',
      )
      failUnsentSends(context)
      stopMaintenance = startMaintenance(context)
      webhooks.start()
      context.history.started = true
      wakeHistoryImports(context)
      restoring = restoreSessions(context, stopping.signal).catch((error: unknown) =>
        logger.error({ err: error }, 'restoring sessions failed'),
      )
      // restoreSessions marks the sessions synchronously before its first await.
    },
    endStreams: http.endStreams,
    beginStop() {
      http.endStreams()
      context.sendQueues.close(gatewayStopping())
    },
    async stop() {
      gateway.beginStop()
      stopMaintenance?.()
      stopping.abort()
      context.inboundMedia.stopping.abort()
      await stopHistoryImports(context.history)
      await restoring
      await engine.stopAll()
      await webhooks.stop()
      prometheus?.close()
      context.credentials.flush()
    },
  }
  return { gateway, context }
}
