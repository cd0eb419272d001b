import type { Clock } from '../clock'
import type { GatewayConfig } from '../config'
import type { GatewayDatabase } from '../db/database'
import type { WhatsAppEngine } from '../engine/whatsapp/port'
import type { EventBus } from '../events/bus'
import type { Logger } from '../logger'
import type { GatewayMetrics } from '../metrics/port'
import type { HostResolver } from '../net/host-resolver'
import type { LinkPreviewer } from '../media/link-preview/previewer'
import type { ProxyGuard } from '../net/proxy-guard'
import type { ReadMemo } from '../perf/read-memo'
import type { StatementCache } from '../perf/prepared'
import type { Outbox } from '../webhooks/outbox'
import type { CredentialCache } from './credential-cache'
import type { InFlightSends } from './messages/send/in-flight-sends'
import type { InboundMedia } from './media/runtime'
import type { MediaTools } from '../media/port'
import type { SendQueues } from './messages/send/send-queue'
import type { SessionListCache } from './sessions/list-cache'
import type { UnlinkHook } from './sessions/unlink-hook'
import type { HistoryImports } from './history/imports'

/**
 * The store, its clock, the settings and the logs: all that the verbs a one-off command runs
 * need (workspaces, API keys, plans, the contact-check quota). The CLI builds only this.
 */
export interface CoreContext {
  db: GatewayDatabase
  clock: Clock
  logger: Logger
  config: GatewayConfig
}

/** What every service verb of a running gateway receives: never HTTP. */
export interface ServiceContext extends CoreContext {
  /** Where events are written, in the transaction of the change they report; wakes webhook delivery. */
  outbox: Outbox
  /** The gateway's prepared hot-path statements. */
  statements: StatementCache
  /** Trigger-kept counters read once per event-loop turn. */
  reads: ReadMemo
  /** Each workspace's session list as last read. */
  sessionLists: SessionListCache
  /** What /metrics reports; noMetrics without METRICS_TOKEN. */
  metrics: GatewayMetrics
}

/** A running gateway's context: adds the live WhatsApp side, media tools and the event stream. */
export interface GatewayContext extends ServiceContext {
  engine: WhatsAppEngine
  events: EventBus
  media: MediaTools
  /** Link previews of texts' URLs, through the guarded fetcher. */
  linkPreviews: LinkPreviewer
  /** Resolves host names of user-supplied URLs (injectable, so tests never need real DNS answers). */
  resolver: HostResolver
  /** Where a workspace's proxy may be (PROXY_ALLOWED_NETWORKS, ALLOW_PRIVATE_ADDRESSES, the host's own addresses). */
  proxyGuard: ProxyGuard
  /** Sends under way per Idempotency-Key, so a concurrent retry waits for the first. */
  inFlightSends: InFlightSends
  /** Each paced session's queue of sends waiting their turn (in memory). */
  sendQueues: SendQueues
  /** API key → workspace, cached for this gateway; revocations anywhere take effect at once. */
  credentials: CredentialCache
  /** Received files: the store, fetches under way. */
  inboundMedia: InboundMedia
  /** History chunks being read (services/history/import.ts). */
  history: HistoryImports
  /** What each part drops of a session that is unlinked (or never linked), in the status change's transaction. */
  unlinkHooks: readonly UnlinkHook[]
}
