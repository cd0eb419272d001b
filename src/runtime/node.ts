import type { IncomingMessage, Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve as honoServe, type Http2Bindings, type HttpBindings } from '@hono/node-server'
import { lingerOnUnreadBody } from './linger'
import { acceptWebSockets } from './node-websocket'
import type { RunningServer, ServeOptions } from './serve'

/**
 * The app's fetch (Hono's, which takes Node's bindings second and hands them to the handlers as
 * `c.env`), with a lingering close armed for each request that may carry a body.
 */
function withLinger(fetch: ServeOptions['fetch']) {
  const appFetch = fetch as (request: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>
  return (request: Request, env: HttpBindings | Http2Bindings) => {
    const method = env.incoming.method
    // An HTTP/1 server (honoServe's default): the request is an IncomingMessage.
    if (method !== 'GET' && method !== 'HEAD') lingerOnUnreadBody(env.incoming as IncomingMessage)
    return appFetch(request, env)
  }
}

export function serve(options: ServeOptions): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = honoServe(
      { fetch: withLinger(options.fetch), port: options.port, hostname: options.hostname },
      (info) => {
        resolve({
          port: (info as AddressInfo).port,
          close: () =>
            new Promise<void>((done) => {
              // Idle keep-alive sockets would hold close() open until they time out, and so would
              // those that go idle later, when the answers under way (or an event stream) end.
              const closeIdle = () => (server as { closeIdleConnections?: () => void }).closeIdleConnections?.()
              const sweep = setInterval(closeIdle, 50)
              server.close(() => {
                clearInterval(sweep)
                done()
              })
              closeIdle()
            }),
        })
      },
    ) as Server
    // GET /v1/events/ws: upgrade requests reach the app as any request does (see acceptWebSockets).
    acceptWebSockets(server, options.fetch)
    // A port already in use (EADDRINUSE) or not allowed: the caller says so, rather than a crash.
    server.once('error', reject)
    if (options.keepAliveTimeoutMs !== undefined) {
      server.keepAliveTimeout = options.keepAliveTimeoutMs
      // Node's own advice: headersTimeout above keepAliveTimeout, or a request arriving just as the
      // idle timer fires can be cut off by the headers timer instead.
      server.headersTimeout = options.keepAliveTimeoutMs + 1_000
    }
  })
}
