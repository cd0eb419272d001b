import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface LoopbackServer {
  port: number
  /** TCP connections accepted so far (an HTTP request, a TLS hello, anything). */
  readonly connections: number
  /** http://<address>:<port><path> */
  url(path: string): string
  close(): Promise<void>
}

/**
 * The one real HTTP server of the tests (media URLs, webhook receivers, stub endpoints): on a
 * loopback address and a free port, closed with every connection it still holds.
 */
export async function startLoopbackServer(
  handler: http.RequestListener,
  address = '127.0.0.1',
): Promise<LoopbackServer> {
  const server = http.createServer(handler)
  let connections = 0
  server.on('connection', () => connections++)
  await new Promise<void>((resolve) => server.listen(0, address, resolve))
  const port = (server.address() as AddressInfo).port
  const host = address.includes(':') ? `[${address}]` : address
  return {
    port,
    get connections() {
      return connections
    },
    url: (path) => `http://${host}:${port}${path}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
