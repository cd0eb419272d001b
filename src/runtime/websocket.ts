import type { Context } from 'hono'
import { defineWebSocketHelper, type UpgradeWebSocket, type WSEvents } from 'hono/ws'

/** What the app's WebSocket route is given: Hono's helper, so an embedder may pass @hono/node-ws's or hono/bun's. */
export type GatewayUpgradeWebSocket = UpgradeWebSocket<unknown, { protocol?: string }>

/** Symbol.for: the Node server's upgrade listener (runtime/node-websocket.ts) and this helper meet on the request. */
export const ACCEPT_SOCKET = Symbol.for('wa-gateway.accept-websocket')
/** Hands a Node upgrade request's socket to the events (set by acceptWebSockets on the IncomingMessage). */
export type AcceptSocket = (events: WSEvents, protocol: string | undefined) => void

interface BunServerLike {
  upgrade(request: Request, options: { data: unknown; headers?: Record<string, string> }): boolean
}

function bunServerOf(env: unknown): BunServerLike | undefined {
  const candidate = env as { upgrade?: unknown; server?: { upgrade?: unknown } } | undefined
  if (typeof candidate?.upgrade === 'function') return candidate as BunServerLike
  if (typeof candidate?.server?.upgrade === 'function') return candidate.server as BunServerLike
  return undefined
}

/**
 * Bun: hono/bun's own data shape ({ events, url, protocol }), so hono/bun's `websocket` handler
 * serves it, plus the chosen subprotocol echoed (hono/bun's helper echoes none, and a browser
 * that offered protocols fails a handshake that selects none).
 */
function upgradeOnBun(c: Context, events: WSEvents, protocol: string | undefined): Response | undefined {
  const server = bunServerOf(c.env)
  if (!server) return undefined
  const data = { events, url: new URL(c.req.url), protocol: protocol ?? '' }
  const upgraded = server.upgrade(c.req.raw, {
    data,
    ...(protocol ? { headers: { 'Sec-WebSocket-Protocol': protocol } } : {}),
  })
  return upgraded ? new Response(null) : undefined
}

/** Node: the request came through acceptWebSockets' upgrade listener, which left its acceptor on it. */
function upgradeOnNode(c: Context, events: WSEvents, protocol: string | undefined): Response | undefined {
  const incoming = (c.env as { incoming?: Record<symbol, AcceptSocket | undefined> } | undefined)?.incoming
  const accept = incoming?.[ACCEPT_SOCKET]
  if (!accept) return undefined
  accept(events, protocol)
  return new Response(null)
}

/**
 * The gateway's default: upgrades on the server the request came through, known by what it
 * handed the app (a Node server with acceptWebSockets, node:http under Bun included, or
 * Bun.serve), not by the runtime. Stateless: what it needs arrives with the request.
 */
export const runtimeUpgradeWebSocket: GatewayUpgradeWebSocket = defineWebSocketHelper<unknown, { protocol?: string }>(
  (c, events, options) => upgradeOnNode(c, events, options?.protocol) ?? upgradeOnBun(c, events, options?.protocol),
)
