/**
 * One WhatsApp session's home: a SQLite-backed Durable Object running the same gateway as the
 * Node process (createGateway over the object's own SQLite), whose engine holds this session's
 * one Baileys socket. Session-level state (credentials, Signal keys, message records, webhook
 * outbox) lives here; the Worker forwards each request for this session to `fetch`.
 *
 * Liveness: an outbound WebSocket does not keep an object in memory, so while a session is live
 * or webhooks are pending an alarm fires every 30 s. After an eviction, a deploy or a restart
 * that alarm (or the next request) rebuilds the object: `gateway.start()` reconnects from the
 * stored credentials without a QR and the dispatcher resumes the outbox.
 */
import { DurableObject } from 'cloudflare:workers'
import { eq, inArray } from 'drizzle-orm'
import { createBaileysEngine } from '../engine/whatsapp/engine'
import { assembleGateway, baileysEngineDeps, type Gateway } from '../gateway'
import { liveStatuses, sessions, webhookDeliveries, workspaces } from '../db/schema'
import { createMediaTools } from '../media/media-tools'
import { createS3MediaStore } from '../media/store/s3'
import { migrateDurable, openDurableDatabase } from './database'
import { edgeConfig, type EdgeEnv } from './env'
import { EdgeEventSockets } from './event-sockets'
import { createEdgeLogger } from './logger'
import {
  createEdgeLinkPreviewer,
  createEdgeMediaFetcher,
  createEdgeWebhookSender,
  edgeMediaConverter,
  edgeResolver,
} from './network'
import { applyPlatformShims } from './platform-shims'

applyPlatformShims()

export const HEARTBEAT_MS = 30_000
const UNLIMITED = Number.MAX_SAFE_INTEGER

export interface SessionRuntime {
  bootId: string
  bootedAt: string
  /** What first woke this instance: a request, or the heartbeat alarm (a revival). */
  wokenBy: 'request' | 'alarm' | 'rpc' | null
  alarmAt: number | null
  alarms: number
}

export class SessionObject extends DurableObject<EdgeEnv> {
  readonly #gateway: Gateway
  readonly #sockets: EdgeEventSockets
  readonly #runtime: SessionRuntime = {
    bootId: crypto.randomUUID().slice(0, 8),
    bootedAt: new Date().toISOString(),
    wokenBy: null,
    alarmAt: null,
    alarms: 0,
  }

  constructor(ctx: DurableObjectState, env: EdgeEnv) {
    super(ctx, env)
    const config = edgeConfig(env)
    const logger = createEdgeLogger(config.logLevel, { object: 'session' })
    const media = createMediaTools(config, { fetcher: createEdgeMediaFetcher(config), converter: edgeMediaConverter })
    const assembled = assembleGateway({
      database: openDurableDatabase(ctx.storage),
      migrate: () => migrateDurable(ctx.storage),
      logger,
      config: {
        ...config,
        // Per workspace, so counted by the workspace object before a request gets here.
        plans: {
          free: { ...config.plans.free, dailyContactChecks: UNLIMITED },
          paid: { ...config.plans.paid, dailyContactChecks: UNLIMITED },
        },
        // An in-memory counter per object limits nothing; use Cloudflare's rate limiting rules.
        rateLimitPerMinute: 0,
        // A Worker's WebSocket and fetch take no custom agent: a proxyUrl is refused, PROXY_URL unused.
        sessionProxies: false,
        // History import writes a chunk's records over many seconds, beyond what an object's
        // request and its storage limits were sized for here: connect refuses `history` (docs/edge.md).
        history: { ...config.history, supported: false },
        // The Worker answers /metrics 404 (one object knows one session): no registry here.
        metricsToken: undefined,
      },
      media,
      linkPreviews: createEdgeLinkPreviewer(config, media),
      // No filesystem: received files are kept in a bucket (MEDIA_STORE=s3, e.g. R2's S3 API), or
      // fetched from WhatsApp and checked for each request. Built here, not left to the gateway's
      // default, which asks SQLite for the database file (PRAGMA database_list: SQLITE_AUTH here).
      mediaStore: config.inboundMedia.store.kind === 's3' ? createS3MediaStore(config.inboundMedia.store) : null,
      resolver: edgeResolver,
      // workerd compiles WebAssembly (Baileys' crypto bridge) only while modules load, never
      // later in a request: here Baileys loads with the object, not on the first open.
      // Media downloads over workerd's fetch: no address to pin, and none needed (see network.ts).
      engine: (deps) => createBaileysEngine({ ...baileysEngineDeps(deps), mediaConnections: 'platform' }),
      webhookSender: createEdgeWebhookSender({
        allowHttp: config.webhookAllowHttp,
        allowPrivateAddresses: config.allowPrivateAddresses,
        timeoutMs: config.webhooks.timeoutMs,
      }),
    })
    this.#gateway = assembled.gateway
    this.#sockets = new EdgeEventSockets(ctx, assembled.context, logger)
    this.#gateway.context.events.on('session.status', (event) =>
      this.#reportStatus(event.workspaceId, event.sessionId, event.status),
    )
    ctx.blockConcurrencyWhile(async () => {
      // Built while its alarm is due: the heartbeat is what brought this session back.
      const alarm = await ctx.storage.getAlarm()
      if (alarm !== null && alarm <= Date.now()) this.#runtime.wokenBy = 'alarm'
      await this.#gateway.start()
      await this.#heartbeat()
    })
  }

  /** RPC: one API request for this session, answered by the same Hono app as on Node. */
  async handle(request: Request): Promise<Response> {
    this.#runtime.wokenBy ??= 'request'
    const response = await this.#gateway.app.fetch(request)
    await this.#heartbeat()
    return response
  }

  override async fetch(request: Request): Promise<Response> {
    // The event socket's handshake comes by fetch (an RPC cannot answer a WebSocket).
    if (new URL(request.url).pathname === '/v1/events/ws') return this.#sockets.app.fetch(request)
    return this.handle(request)
  }

  override webSocketMessage(socket: WebSocket, message: string | ArrayBuffer): void {
    this.#sockets.message(socket, message)
  }

  override webSocketClose(socket: WebSocket): void {
    this.#sockets.closed(socket)
  }

  override webSocketError(socket: WebSocket): void {
    this.#sockets.closed(socket)
  }

  override async alarm(): Promise<void> {
    this.#runtime.wokenBy ??= 'alarm'
    this.#runtime.alarms++
    await this.#heartbeat()
  }

  /** Keeps the alarm armed while anything needs this object in memory; lets it go otherwise. */
  async #heartbeat(): Promise<void> {
    const db = this.#gateway.context.db
    const live = db.select({ id: sessions.id }).from(sessions).where(inArray(sessions.status, liveStatuses)).get()
    const pending = db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.status, 'pending'))
      .get()
    if (live || pending) {
      const at = Date.now() + HEARTBEAT_MS
      await this.ctx.storage.setAlarm(at)
      this.#runtime.alarmAt = at
    } else {
      await this.ctx.storage.deleteAlarm()
      this.#runtime.alarmAt = null
    }
  }

  /** The workspace object's session index follows every status change (it counts the plan's cap). */
  #reportStatus(workspaceId: string, sessionId: string, status: string): void {
    const workspace = this.#gateway.context.db
      .select({ name: workspaces.name })
      .from(workspaces)
      .where(eq(workspaces.id, workspaceId))
      .get()
    if (!workspace) return
    const index = this.env.WORKSPACES.get(this.env.WORKSPACES.idFromName(workspace.name))
    this.ctx.waitUntil(index.noteStatus(sessionId, status).catch(() => {}))
    if (status === 'pending' || status === 'connecting' || status === 'connected') this.ctx.waitUntil(this.#heartbeat())
  }

  /** RPC: which instance is this, and why does it exist (the eviction test reads it). */
  runtime(): SessionRuntime {
    this.#runtime.wokenBy ??= 'rpc'
    return { ...this.#runtime }
  }

  /** RPC (EDGE_TEST_HOOKS only): drops this instance as an eviction does; storage and the alarm stay. */
  evict(): void {
    if (this.env.EDGE_TEST_HOOKS !== 'true') throw new Error('test hooks are off')
    this.ctx.abort('evicted by the test hook')
  }
}
