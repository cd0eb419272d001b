import type { Clock } from '../clock'
import type { GatewayConfig } from '../config'
import type { GatewayDatabase } from '../db/database'
import type { StatementCache } from '../db/prepared'
import type { ReadMemo } from '../db/read-memo'
import type { WhatsAppEngine } from '../engine/whatsapp/types'
import type { EventBus } from '../events/bus'
import type { Logger } from '../logger'
import type { CredentialCache } from './credential-cache'
import type { EventStreams } from '../http/event-streams'
import type { HostResolver } from '../net/host-resolver'
import type { WebhookNotifier } from '../webhooks/outbox'
import type { MediaTools } from './messages/media-tools'
import type { InFlightSends } from './messages/idempotency'
import type { InboundMedia } from './media/runtime'
import type { SessionListCache } from './sessions/list'

/** What every service verb receives: the gateway's dependencies, never HTTP. */
export interface ServiceContext {
  db: GatewayDatabase
  clock: Clock
  logger: Logger
  config: GatewayConfig
  /** Woken when an event enters the webhook outbox (absent in the CLI: nothing delivers there). */
  webhooks?: WebhookNotifier
  /** The gateway's prepared hot-path statements (absent in the CLI: one-off commands build them per call). */
  statements?: StatementCache
  /** Trigger-kept counters read once per event-loop turn (absent in the CLI: read every time). */
  reads?: ReadMemo
  /** Each workspace's session list as last read (absent in the CLI: it reads every time). */
  sessionLists?: SessionListCache
}

/** A running gateway's context: adds the live WhatsApp side, media tools and the event stream. */
export interface GatewayContext extends ServiceContext {
  engine: WhatsAppEngine
  events: EventBus
  media: MediaTools
  /** Resolves host names of user-supplied URLs (injectable, so tests never need real DNS answers). */
  resolver: HostResolver
  /** Sends under way per Idempotency-Key, so a concurrent retry waits for the first. */
  inFlightSends: InFlightSends
  /** API key → workspace, cached for this gateway; revocations anywhere take effect at once. */
  credentials: CredentialCache
  /** Open GET /v1/events streams: capped per workspace, ended when the gateway stops. */
  eventStreams: EventStreams
  /** Received files: the store, fetches under way. */
  inboundMedia: InboundMedia
}
