import { websocket } from 'hono/bun'
import { discardBody } from './linger'
import { MAX_CLIENT_FRAME_BYTES } from './client-frames'
import type { RunningServer, ServeOptions } from './serve'

interface BunServer {
  port: number
  stop(closeActiveConnections?: boolean): Promise<void> | void
}
interface BunServeOptions {
  fetch(request: Request, server: BunServer): Response | Promise<Response>
  /** hono/bun's handlers: GET /v1/events/ws upgrades with hono/bun's data shape (see runtime/websocket.ts). */
  websocket: typeof websocket & { maxPayloadLength: number }
  port: number
  hostname: string
  /** Seconds, at most 255 (Bun's cap); Bun's default is 10. */
  idleTimeout?: number
}
declare const Bun: { serve(options: BunServeOptions): BunServer }

/** Bun takes whole seconds up to 255: rounded up, so the idle time is never shorter than asked. */
export const bunIdleTimeoutSeconds = (ms: number) => Math.min(255, Math.ceil(ms / 1000))

/**
 * The app's fetch, holding back an answer that closes the connection over an unread body (the
 * error handler's `Connection: close`: a 413, a 401 before the body was read) until the body is
 * read, within the linger bounds: Bun would otherwise close over the unread rest at once, and
 * the reset loses the answer for a client that writes its whole body before reading.
 */
function withLinger(fetch: ServeOptions['fetch']) {
  const holdBack = async (request: Request, response: Response) => {
    const body = request.body
    if (body && !body.locked && response.headers.get('connection') === 'close') await discardBody(body)
    return response
  }
  return (request: Request, server: BunServer) => {
    const answer = fetch(request, server)
    if (request.body === null) return answer
    return answer instanceof Promise ? answer.then((r) => holdBack(request, r)) : holdBack(request, answer)
  }
}

export async function serve(options: ServeOptions): Promise<RunningServer> {
  const { keepAliveTimeoutMs } = options
  const server = Bun.serve({
    fetch: withLinger(options.fetch),
    port: options.port,
    hostname: options.hostname,
    // A larger client frame closes the socket with 1009 before it is buffered.
    websocket: { ...websocket, maxPayloadLength: MAX_CLIENT_FRAME_BYTES },
    ...(keepAliveTimeoutMs === undefined ? {} : { idleTimeout: bunIdleTimeoutSeconds(keepAliveTimeoutMs) }),
  })
  return { port: server.port, close: async () => void (await server.stop()) }
}
