/**
 * GET /v1/events/ws in a session's Durable Object: the Worker authenticated the JWT (from the
 * `wag.bearer.` subprotocol or Authorization) and forwards the handshake here with the workspace
 * and the token's expiry. The object accepts the socket with the hibernation API (the runtime
 * calls webSocketMessage/webSocketClose on the object), and a pump reads the outbox for it every
 * 250 ms as on Node. That poll keeps the object awake while a socket is open, as the session's
 * own WhatsApp connection does: the object does not hibernate with a socket open, and an eviction
 * closes it (1006); the client reconnects with `after` and misses nothing (docs/edge.md).
 */
import { eq } from 'drizzle-orm'
import { Hono } from 'hono'
import { requestId } from 'hono/request-id'
import { workspaces } from '../db/schema'
import { GatewayError } from '../errors'
import { errorHandler, notFoundHandler } from '../http/error-handler'
import { EVENTS_PROTOCOL, READY_FRAME, CLOSE } from '../http/routes/v1/events/socket/frames'
import { startPump } from '../http/routes/v1/events/socket/pump'
import type { Logger } from '../logger'
import { assertScope, eventsAfter, startPosition, type EventScope, type OutboxPosition } from '../services/events/read'
import type { GatewayContext } from '../services/context'
import { validationError } from '../services/validation-error'

/** Set by the Worker on the handshake it forwards (nothing else reaches an object). */
export const WORKSPACE_HEADER = 'x-wag-workspace'
export const EXPIRES_HEADER = 'x-wag-expires-at'

/** Sockets one session's object serves at once: the Node gateway's per-workspace stream limit. */
export const MAX_SOCKETS = 10

interface Stream {
  scope: EventScope
  after: OutboxPosition
  expiresAtMs: number
}

const EVENT_ID = /^[\w-]{1,100}$/

export class EdgeEventSockets {
  readonly #pumps = new Map<WebSocket, { stop(): void }>()
  readonly #ending = new AbortController()
  readonly app: Hono<{ Variables: { requestId: string } }>

  constructor(
    private readonly state: DurableObjectState,
    private readonly ctx: GatewayContext,
    private readonly logger: Logger,
  ) {
    this.app = new Hono<{ Variables: { requestId: string } }>()
      .use(requestId())
      .get('/v1/events/ws', (c) => this.#open(c.req.raw))
      .onError(errorHandler(logger))
      .notFound(notFoundHandler)
  }

  #open(request: Request): Response {
    const ctx = this.ctx
    const url = new URL(request.url)
    const workspaceName = request.headers.get(WORKSPACE_HEADER)
    const expiresAtMs = Number(request.headers.get(EXPIRES_HEADER))
    const workspace = workspaceName
      ? ctx.db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.name, workspaceName)).get()
      : undefined
    const sessionId = url.searchParams.get('sessionId') ?? ''
    if (!workspace) throw new GatewayError('not_found', `Session "${sessionId}" not found`)
    const scope: EventScope = { workspaceId: workspace.id, sessionId }
    assertScope(ctx, scope)
    const after = url.searchParams.get('after') ?? request.headers.get('last-event-id') ?? undefined
    if (after !== undefined && !EVENT_ID.test(after))
      throw validationError([{ path: 'after', message: 'must be an eventId (evt_…)' }])
    if (this.state.getWebSockets().length >= MAX_SOCKETS)
      throw new GatewayError('rate_limited', `At most ${MAX_SOCKETS} event streams per session on the edge`)
    const pair = new WebSocketPair()
    const [client, server] = [pair[0], pair[1]]
    this.state.acceptWebSocket(server)
    server.send(READY_FRAME)
    this.#pump(server, { scope, after: startPosition(ctx, scope, after), expiresAtMs })
    return new Response(null, {
      status: 101,
      webSocket: client,
      headers: { 'sec-websocket-protocol': EVENTS_PROTOCOL },
    })
  }

  /** A client frame: nothing is asked of clients here (the credential came with the handshake). */
  message(socket: WebSocket, message: string | ArrayBuffer): void {
    if (typeof message !== 'string') this.#close(socket, CLOSE.unsupportedData, 'text frames only')
  }

  closed(socket: WebSocket): void {
    this.#pumps.get(socket)?.stop()
    this.#pumps.delete(socket)
  }

  #pump(socket: WebSocket, stream: Stream): void {
    const ctx = this.ctx
    const pump = startPump({
      read: (position, limit) => eventsAfter(ctx, stream.scope, position, limit),
      after: stream.after,
      credentialEnded: () => (Date.now() >= stream.expiresAtMs ? 'expired' : null),
      msUntilExpiry: () => Math.max(0, stream.expiresAtMs - Date.now()),
      socket: {
        send: (text) => socket.send(text),
        close: (code, reason) => this.#close(socket, code, reason),
        // workerd buffers outbound frames itself and reports no backlog
        bufferedAmount: () => 0,
      },
      logger: this.logger,
      ending: this.#ending.signal,
    })
    this.#pumps.set(socket, pump)
  }

  #close(socket: WebSocket, code: number, reason: string): void {
    this.closed(socket)
    try {
      socket.close(code, reason)
    } catch {
      // already closing
    }
  }
}
