// The mmg.whatsapp.net stand-in: loopback HTTPS with the simulator's own CA. Stores encrypted
// uploads under a direct path and serves them back.
import { createServer } from 'node:https'
import type { Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import type { MediaTlsMaterial } from './certificates'

export interface StoredMedia {
  directPath: string
  bytes: Buffer
  uploadedAt: number
  /** Served as this type (profile photos are plain JPEGs); encrypted media is octet-stream */
  contentType?: string
}

export class MediaHost {
  readonly uploads = new Map<string, StoredMedia>()
  private counter = 0

  private constructor(
    private readonly server: Server,
    readonly tls: MediaTlsMaterial,
  ) {}

  static async start(tls: MediaTlsMaterial): Promise<MediaHost> {
    const server = createServer({ key: tls.keyPem, cert: tls.certPem })
    const host = new MediaHost(server, tls)
    server.on('request', (req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        const path = (req.url ?? '/').split('?')[0] ?? '/'
        if (req.method === 'POST') {
          const stored = host.store(Buffer.concat(chunks), path)
          res.writeHead(200, { 'content-type': 'application/json' })
          res.end(JSON.stringify({ url: host.urlFor(stored.directPath), direct_path: stored.directPath }))
          return
        }
        const media = host.uploads.get(path)
        res.writeHead(media ? 200 : 404, { 'content-type': media?.contentType ?? 'application/octet-stream' })
        res.end(media?.bytes)
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return host
  }

  /** host:port, as the media_conn iq announces it */
  get hostname(): string {
    return `127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  urlFor(directPath: string): string {
    return `https://${this.hostname}${directPath}`
  }

  /** Stores encrypted bytes (from an upload or a contact), or a plain file of `contentType`, and returns their direct path. */
  store(bytes: Buffer, uploadPath = '/mms/file', contentType?: string): StoredMedia {
    const directPath = `/v/t62.sim-${++this.counter}${uploadPath.replace(/[^a-zA-Z0-9/_-]/g, '').slice(0, 40)}`
    const stored = { directPath, bytes, uploadedAt: Date.now(), ...(contentType ? { contentType } : {}) }
    this.uploads.set(directPath, stored)
    return stored
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}
