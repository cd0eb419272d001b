import { startLoopbackServer } from './loopback-server'

export interface MediaServer {
  /** http://127.0.0.1:<port>/<name> for a file put with `serve`. */
  url(name: string): string
  serve(name: string, bytes: Uint8Array, contentType?: string): void
  /** Paths requested so far: a refused URL must leave no trace here. */
  requests: string[]
  close(): Promise<void>
}

/**
 * A loopback HTTP server the gateway fetches media URLs from in tests; the gateway under test
 * allows private addresses (the operator's switch) to reach it. A header may lie about the
 * type: the gateway must sniff the bytes.
 */
export async function startMediaServer(): Promise<MediaServer> {
  const files = new Map<string, { bytes: Uint8Array; type: string }>()
  const requests: string[] = []
  const server = await startLoopbackServer((request, response) => {
    const path = request.url ?? '/'
    requests.push(path)
    const file = files.get(path.slice(1))
    if (!file) return void response.writeHead(404).end('not found')
    response
      .writeHead(200, { 'content-type': file.type, 'content-length': String(file.bytes.byteLength) })
      .end(Buffer.from(file.bytes))
  })
  return {
    url: (name) => server.url(`/${name}`),
    serve: (name, bytes, type = 'application/octet-stream') => void files.set(name, { bytes, type }),
    requests,
    close: server.close,
  }
}
