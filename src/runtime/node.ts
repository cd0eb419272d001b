import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve as honoServe } from '@hono/node-server'
import type { RunningServer, ServeOptions } from './serve'

export function serve(options: ServeOptions): Promise<RunningServer> {
  return new Promise((resolve) => {
    const server = honoServe({ fetch: options.fetch, port: options.port, hostname: options.hostname }, (info) => {
      resolve({
        port: (info as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done())
            // Idle keep-alive sockets would hold close() open until they time out.
            ;(server as { closeIdleConnections?: () => void }).closeIdleConnections?.()
          }),
      })
    }) as Server
    if (options.keepAliveTimeoutMs !== undefined) {
      server.keepAliveTimeout = options.keepAliveTimeoutMs
      // Node's own advice: headersTimeout above keepAliveTimeout, or a request arriving just as the
      // idle timer fires can be cut off by the headers timer instead.
      server.headersTimeout = options.keepAliveTimeoutMs + 1_000
    }
  })
}
