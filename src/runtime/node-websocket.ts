import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WSContext, type WSEvents } from 'hono/ws'
import { WebSocketServer, type RawData, type WebSocket } from 'ws'
import { MAX_CLIENT_FRAME_BYTES } from './client-frames'
import { ACCEPT_SOCKET, type AcceptSocket } from './websocket'

type AppFetch = (
  request: Request,
  env: { incoming: IncomingMessage; outgoing: undefined },
) => Response | Promise<Response>

interface Accepted {
  events: WSEvents
  protocol: string | undefined
}

/**
 * Serves WebSocket upgrades on a Node HTTP server through the app: each upgrade request goes
 * to `fetch` as any request does (auth, validation and their JSON errors included); a route
 * that upgrades (runtimeUpgradeWebSocket) leaves its events here, and the socket is handed to
 * them; any other answer is written back as the HTTP response it is. An embedder serving the
 * gateway's app on its own Node server calls this with that server and its fetch.
 */
export function acceptWebSockets(server: Server, fetch: AppFetch): WebSocketServer {
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_CLIENT_FRAME_BYTES,
    // Only the protocol the route chose is echoed: never one the client offered that carries a credential.
    handleProtocols: (_offered, request) => chosenProtocol.get(request) ?? false,
  })
  const chosenProtocol = new WeakMap<IncomingMessage, string>()
  server.on('upgrade', (incoming: IncomingMessage, socket: Duplex, head: Buffer) => {
    void handOver(incoming, socket, head)
  })

  async function handOver(incoming: IncomingMessage, socket: Duplex, head: Buffer) {
    socket.on('error', () => socket.destroy())
    let accepted: Accepted | undefined
    const accept: AcceptSocket = (events, protocol) => {
      accepted = { events, protocol }
    }
    Object.assign(incoming, { [ACCEPT_SOCKET]: accept })
    let response: Response
    try {
      response = await fetch(toRequest(incoming), { incoming, outgoing: undefined })
    } catch {
      response = new Response(null, { status: 500 })
    }
    const chosen = accepted
    if (!chosen) return writeResponse(socket, response)
    if (chosen.protocol) chosenProtocol.set(incoming, chosen.protocol)
    // ws refuses a malformed handshake (a bad Sec-WebSocket-Key, version) after the route took a
    // stream slot, and never opens: the events hear a close all the same, so the slot comes back.
    let opened = false
    socket.once('close', () => {
      if (!opened) chosen.events.onClose?.(closeEvent(1006, ''), unopened)
    })
    sockets.handleUpgrade(incoming, socket, head, (ws) => {
      opened = true
      bind(ws, chosen)
    })
  }
  return sockets
}

function toRequest(incoming: IncomingMessage): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one)
  }
  const url = new URL(incoming.url ?? '/', `http://${incoming.headers.host ?? 'localhost'}`)
  return new Request(url, { method: incoming.method ?? 'GET', headers })
}

async function writeResponse(socket: Duplex, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer())
  const lines = [`HTTP/1.1 ${response.status} ${response.statusText || statusText(response.status)}`]
  response.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'connection') lines.push(`${name}: ${value}`)
  })
  lines.push(`content-length: ${body.length}`, 'connection: close', '', '')
  socket.end(Buffer.concat([Buffer.from(lines.join('\r\n')), body]))
}

const statusText = (status: number) => (status < 500 ? 'Refused' : 'Error')

/** Hono's events on a `ws` socket, as @hono/node-ws wires them. */
function bind(ws: WebSocket, { events, protocol }: Accepted): void {
  const context = new WSContext<WebSocket>({
    send: (data) => ws.send(data),
    close: (code, reason) => ws.close(code, reason),
    raw: ws,
    get readyState() {
      return ws.readyState as 0 | 1 | 2 | 3
    },
    protocol,
  })
  ws.on('message', (data: RawData, isBinary: boolean) => {
    const payload = isBinary ? toArrayBuffer(data) : data.toString()
    events.onMessage?.(new MessageEvent('message', { data: payload }), context)
  })
  ws.on('close', (code: number, reason: Buffer) => events.onClose?.(closeEvent(code, reason.toString()), context))
  // An oversized or malformed frame: ws closes the socket itself (1009, 1002); 'close' follows.
  ws.on('error', (error) => {
    events.onError?.(Object.assign(new Event('error'), { error }), context)
  })
  events.onOpen?.(new Event('open'), context)
}

type CloseEventOf = Parameters<NonNullable<WSEvents['onClose']>>[0]
/** Node 20 has no global CloseEvent: an Event with its two fields. */
const closeEvent = (code: number, reason: string) =>
  Object.assign(new Event('close'), { code, reason }) as unknown as CloseEventOf

/** What a handshake that never opened passes its close handler: a context on no socket. */
const unopened = new WSContext({ send: () => {}, close: () => {}, readyState: 3 })

function toArrayBuffer(data: RawData): ArrayBuffer {
  const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer)
  return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer
}
