import type { Logger } from '../../../logger'
import type { ProxyGuard } from '../../../net/proxy-guard'
import type { BackoffPolicy } from '../../../shared/backoff'
import type { BaileysLogger } from '../baileys-logger'
import type { EngineFact } from '../port'
import type { AuthStore } from '../port/auth-store'
import type { GroupInfo } from '../port/groups'
import type { SessionConnection } from './connection'
import type { LoopFairness } from './loop-fairness'
import type { NetworkTarget, WhatsAppEndpoint } from './network-target'
import type { SocketCacheRegistry } from './socket-caches'
import type { WebVersionKeeper } from './web-version'

/** What a SessionConnection is given: the engine's shared parts, its timings, and where facts go. */

export interface ConnectionTiming {
  qrTimeoutMs?: number
  queryTimeoutMs: number
  backoff: BackoffPolicy
  /** Baileys' keep-alive ping period; a socket silent for this + 5 s is closed (unresponsive). Also a liveness check's wait. */
  keepAliveIntervalMs: number
}

export interface ConnectionDeps {
  /** Where the session's credentials and Signal keys are kept (one store for the engine's connections). */
  authStore: AuthStore
  logger: Logger
  /** What Baileys itself logs through. */
  baileysLogger: BaileysLogger
  /** WhatsApp or the simulator. */
  endpoint: WhatsAppEndpoint
  /** The shared target of connections without a proxy. */
  direct: NetworkTarget
  /** How a workspace's proxy host is resolved and checked before each connection. */
  proxyGuard: ProxyGuard
  versions: WebVersionKeeper
  timing: ConnectionTiming
  /** Where each socket's caches come from (one sweep timer for the engine). */
  caches: SocketCacheRegistry
  /** Awaited at each key-store write: lets the loop turn during a long backlog (loop-fairness.ts). */
  fairness: LoopFairness
  report(fact: EngineFact): void
  /** A message we sent earlier, for Baileys to send again when a device asks (retry receipts). */
  storedMessage(sessionId: string, messageId: string): Uint8Array | undefined
  /** A group as the gateway's store has it (Baileys' cachedGroupMetadata). */
  groupMetadata(sessionId: string, groupJid: string): GroupInfo | undefined
  /** Called once when the connection stops for good (not for reconnects). */
  onStopped(connection: SessionConnection): void
  /** Reads a history chunk (WhatsAppEngine.readHistory with the engine's limits for a bootstrap). */
  readHistory(sessionId: string, notification: Uint8Array): AsyncIterable<unknown>
}
