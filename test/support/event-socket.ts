import WebSocket from 'ws'
import { pollUntil } from './poll'

/** A frame as the client got it: the raw text and its parse. */
export interface SocketFrame {
  raw: string
  json: any
}

export interface OpenSocket {
  ws: WebSocket
  /** The subprotocol the handshake selected ('' for none). */
  protocol: string
  frames: SocketFrame[]
  /** Event frames only (those with an id). */
  events(): SocketFrame[]
  until(predicate: (frames: SocketFrame[]) => boolean, timeoutMs?: number): Promise<SocketFrame[]>
  /** The server's close code and reason. */
  closed: Promise<{ code: number; reason: string }>
  close(): void
}

/** A refused handshake: the HTTP status and JSON body the server answered instead of 101. */
export interface RefusedHandshake {
  status: number
  body: any
}

export interface SocketOptions {
  protocols?: string[]
  headers?: Record<string, string>
  /** Sent as soon as the socket opens. */
  firstFrame?: string | Buffer
}

/** Opens a WebSocket with the `ws` client: the socket once open, or the HTTP answer that refused it. */
export function openSocket(url: string, options: SocketOptions = {}): Promise<OpenSocket | RefusedHandshake> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options.protocols ?? [], { headers: options.headers })
    const frames: SocketFrame[] = []
    const closed = new Promise<{ code: number; reason: string }>((done) => {
      ws.on('close', (code, reason) => done({ code, reason: reason.toString() }))
    })
    ws.on('message', (data, isBinary) => {
      const raw = isBinary ? '' : data.toString()
      frames.push({ raw, json: isBinary ? undefined : JSON.parse(raw) })
    })
    ws.on('unexpected-response', (_request, response) => {
      let text = ''
      response.on('data', (chunk: Buffer) => {
        text += chunk.toString()
      })
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : null }))
    })
    ws.on('error', (error) => reject(error))
    ws.on('open', () => {
      if (options.firstFrame !== undefined) ws.send(options.firstFrame)
      resolve({
        ws,
        protocol: ws.protocol,
        frames,
        events: () => frames.filter((f) => f.json?.id !== undefined),
        until: async (predicate, timeoutMs = 10_000) => {
          await pollUntil(
            () => frames,
            (list) => predicate(list),
            { timeoutMs, what: 'the socket’s frames' },
          )
          return frames
        },
        closed,
        close: () => ws.close(),
      })
    })
  })
}

export const isRefused = (socket: OpenSocket | RefusedHandshake): socket is RefusedHandshake => 'status' in socket
