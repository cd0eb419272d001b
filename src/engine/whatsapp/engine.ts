import { Curve } from '@whiskeysockets/baileys'
import type { Logger } from '../../logger'
import { hasPairedCredentials } from './socket/credentials'
import { baileysLogger } from './baileys-logger'
import { SessionConnection } from './socket/connection'
import type { ConnectionTiming } from './socket/connection-deps'
import { installSignatureChecks } from './socket/signature-checks'
import { type LoopFairness, loopFairness } from './socket/loop-fairness'
import { downloadMedia, type MediaHosts } from './media/media-download'
import { readHistoryChunk } from './history/read-history'
import { type MediaFetch, pinnedMediaFetch, platformMediaFetch, proxiedMediaFetch } from './media/media-fetch'
import { directTarget, resolveEndpoint, type NetworkTarget, type WhatsAppEndpoint } from './socket/network-target'
import type { ProxyGuard } from '../../net/proxy-guard'
import { SocketCacheRegistry } from './socket/socket-caches'
import { FactListeners } from './fact-listeners'
import type { GroupInfo } from './port/groups'
import type { OpenOptions, WhatsAppEngine } from './port'
import type { AuthStore } from './port/auth-store'
import type { WebVersionKeeper } from './socket/web-version'

export interface BaileysEngineDeps {
  /** Where sessions' credentials and Signal keys are kept (the gateway's SQLite). */
  authStore: AuthStore
  logger: Logger
  /** The gateway logger's level (the operator's LOG_LEVEL); Baileys' own lines follow it (see baileysLogLevel). */
  logLevel: string
  timing: ConnectionTiming
  /** Control URL of the project's simulator, or undefined for WhatsApp itself. */
  simulatorUrl?: string
  /** The WhatsApp Web version sockets announce (learnt at start and after a 405). */
  versions: WebVersionKeeper
  proxyGuard: ProxyGuard
  /**
   * How media downloads connect: 'pinned' (Node, Bun: to the address the guard checked, the
   * default) or 'platform' (workerd: its own fetch, which cannot reach private addresses).
   */
  mediaConnections?: 'pinned' | 'platform'
  storedMessage(sessionId: string, messageId: string): Uint8Array | undefined
  groupMetadata(sessionId: string, groupJid: string): GroupInfo | undefined
  /** How often a long run of received messages lets the event loop turn (loopFairness(): every 20 ms). */
  fairness?: LoopFairness
}

/** How a bootstrap read only for its LID mappings and privacy tokens is bounded. */
const BOOTSTRAP_READ = {
  maxFileBytes: 64 * 1024 * 1024,
  maxInflatedBytes: 64 * 1024 * 1024,
  batchSize: 500,
  idleTimeoutMs: 30_000,
}

/** The WhatsApp engine over Baileys: owns every live connection, keyed by session id, in memory. */
export function createBaileysEngine(deps: BaileysEngineDeps): WhatsAppEngine {
  const connections = new Map<string, SessionConnection>()
  const facts = new FactListeners()
  const caches = new SocketCacheRegistry()
  const fairness = deps.fairness ?? loopFairness()
  installSignatureChecks(Curve) // strict, and WhatsApp's certificate chain checked once rather than at every login
  // Baileys is loading because a session opens: learn the version its first socket announces.
  void deps.versions.refresh()
  let target: Promise<{ endpoint: WhatsAppEndpoint; direct: NetworkTarget }> | undefined
  const networkTarget = () => {
    // A failed lookup (simulator not up yet) is not remembered: the next open tries again.
    target ??= resolveEndpoint(deps.simulatorUrl, deps.logger).then(
      (endpoint) => ({ endpoint, direct: directTarget(endpoint) }),
      (error: unknown) => {
        target = undefined
        throw error
      },
    )
    return target
  }

  const engine: WhatsAppEngine = {
    onFact: (listener) => facts.add(listener),

    async open(sessionId: string, options: OpenOptions) {
      const { endpoint, direct } = await networkTarget()
      // From here on nothing awaits: the swap below cannot interleave with another open().
      const logger = deps.logger.child({ sessionId })
      const connection = new SessionConnection(sessionId, options, {
        authStore: deps.authStore,
        logger,
        baileysLogger: baileysLogger(logger, deps.logLevel),
        endpoint,
        direct,
        proxyGuard: deps.proxyGuard,
        versions: deps.versions,
        timing: deps.timing,
        caches,
        fairness,
        report: facts.emit,
        storedMessage: deps.storedMessage,
        groupMetadata: deps.groupMetadata,
        onStopped: (stopped) => {
          if (connections.get(sessionId) === stopped) connections.delete(sessionId)
        },
        readHistory: (id, notification) => engine.readHistory(id, notification, BOOTSTRAP_READ),
      })
      const previous = connections.get(sessionId)
      connections.set(sessionId, connection)
      void previous?.end()
      connection.start()
      return connection
    },

    session: (sessionId) => connections.get(sessionId),

    hasCredentials: (sessionId) => hasPairedCredentials(deps.authStore, sessionId),

    wipeCredentials: (sessionId) => deps.authStore.clear(sessionId),

    async stopAll() {
      await Promise.all([...connections.values()].map((connection) => connection.end()))
    },

    webVersion: () => deps.versions.info(),

    async downloadMedia(sessionId, payload, options) {
      const { fetchMedia, hosts } = await mediaAccess(sessionId)
      return downloadMedia(payload, fetchMedia, hosts, options)
    },

    async *readHistory(sessionId, notification, options) {
      const { fetchMedia, hosts } = await mediaAccess(sessionId)
      yield* readHistoryChunk(
        notification,
        {
          fetchMedia,
          hosts,
          now: () => new Date(),
          onMappings: (pairs) => connections.get(sessionId)?.rememberLidMappings(pairs),
          onTcTokens: (tokens) => connections.get(sessionId)?.rememberTcTokens(tokens),
        },
        options,
      )
    },
  }
  return engine

  /** How the session's media downloads connect, and from which hosts beside WhatsApp's. */
  async function mediaAccess(sessionId: string): Promise<{ fetchMedia: MediaFetch; hosts: MediaHosts }> {
    const { endpoint, direct } = await networkTarget()
    const connection = connections.get(sessionId)
    // The session's own target (its proxy), else the direct one
    const target = connection?.networkTarget ?? direct
    const trusted = endpoint.trustedMediaHosts ?? []
    // The simulator's host is the one media host that may be on a private address
    const { resolver, allowPrivateAddresses } = deps.proxyGuard
    const guard = { resolver, allowPrivateAddresses, privateHosts: trusted }
    const fetchMedia: MediaFetch =
      deps.mediaConnections === 'platform'
        ? platformMediaFetch
        : target === direct
          ? pinnedMediaFetch(guard, endpoint.mediaCaPem)
          : proxiedMediaFetch(guard, target)
    const announced = connection?.announcedMediaHosts ?? []
    // A file named by its direct path alone (history chunks) is on the simulator's host, else media_conn's.
    return { fetchMedia, hosts: { allowed: [...trusted, ...announced], fallback: trusted[0] ?? announced[0] } }
  }
}
