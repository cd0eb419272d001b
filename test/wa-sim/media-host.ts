// The mmg.whatsapp.net stand-in: loopback HTTPS with the simulator's own CA. Stores encrypted
// uploads under a direct path and serves them back, with Range. Like WhatsApp's CDN it drops files
// (expire: 404 or 410 from then on); a phone's re-upload stores the same encrypted bytes under a
// new direct path. A download can be held until released, to test what waits for it. A path can
// also be given a scripted answer (a status, a redirect, garbage, or silence), to test what a client
// makes of a CDN that misbehaves.
import { createServer } from 'node:https'
import type { ServerResponse } from 'node:http'
import type { Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import type { MediaTlsMaterial } from './certificates'
import { SimulatorError } from './errors'

export interface StoredMedia {
  directPath: string
  bytes: Buffer
  uploadedAt: number
  /** Set once the file expired: what a GET answers instead of the bytes. */
  expired?: 404 | 410
  /** Served as this type (profile photos are plain JPEGs); encrypted media is octet-stream */
  contentType?: string
}

/**
 * What a GET of a scripted path answers: a status (a 3xx with its Location, a 200 with `body`,
 * anything else with a short text), or `silence` (the headers never come, until the host stops).
 */
export type MediaAnswer = { status: number; location?: string; body?: Buffer } | 'silence'

/** A scripted answer, checked as strictly as the rest of the simulator: a status a server could send, a redirect with a target. */
export function checkMediaAnswer(answer: MediaAnswer): void {
  if (answer === 'silence') return
  const { status, location, body } = answer
  if (!Number.isInteger(status) || status < 200 || status > 599)
    throw new SimulatorError('invalid_request', `a media host answers 200-599, not ${status}`)
  const redirect = status >= 300 && status <= 399
  if (redirect !== (location !== undefined))
    throw new SimulatorError('invalid_request', 'a 3xx answer needs a location, and only a 3xx has one')
  if (location !== undefined && !URL.canParse(location))
    throw new SimulatorError('invalid_request', `location "${location}" is not an absolute URL`)
  if (body !== undefined && status !== 200) throw new SimulatorError('invalid_request', 'only a 200 answer has a body')
}

export class MediaHost {
  readonly uploads = new Map<string, StoredMedia>()
  /** GETs answered per direct path (any status). */
  readonly downloads = new Map<string, number>()
  private readonly held = new Map<string, { release: Promise<void>; open: () => void }>()
  private readonly scripted = new Map<string, MediaAnswer>()
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
        host.downloads.set(path, (host.downloads.get(path) ?? 0) + 1)
        const hold = (host.held.get(path) ?? host.held.get('*'))?.release ?? Promise.resolve()
        void hold.then(() => host.serve(path, req.headers.range, res))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return host
  }

  private serve(path: string, range: string | undefined, res: ServerResponse): void {
    const scripted = this.scripted.get(path)
    if (scripted) {
      this.answer(scripted, res)
      return
    }
    const media = this.uploads.get(path)
    if (!media || media.expired) {
      res.writeHead(media?.expired ?? 404, { 'content-type': 'text/plain' })
      res.end(media?.expired === 410 ? 'gone' : 'not found')
      return
    }
    const match = range ? /^bytes=(\d+)-(\d*)$/.exec(range) : null
    if (match) {
      const start = Number(match[1])
      const end = Math.min(match[2] ? Number(match[2]) : media.bytes.length - 1, media.bytes.length - 1)
      res.writeHead(206, {
        'content-type': media.contentType ?? 'application/octet-stream',
        'content-range': `bytes ${start}-${end}/${media.bytes.length}`,
        'content-length': String(end - start + 1),
      })
      res.end(media.bytes.subarray(start, end + 1))
      return
    }
    res.writeHead(200, {
      'content-type': media.contentType ?? 'application/octet-stream',
      'content-length': String(media.bytes.length),
    })
    res.end(media.bytes)
  }

  private answer(answer: MediaAnswer, res: ServerResponse): void {
    if (answer === 'silence') return // the connection stays open, headers unsent, until stop()
    const { status, location, body } = answer
    const content = body ?? Buffer.from(`scripted ${status}`)
    res.writeHead(status, {
      'content-type': 'application/octet-stream',
      'content-length': String(content.length),
      ...(location ? { location } : {}),
    })
    res.end(content)
  }

  /** A fresh direct path whose GETs get `answer` (counted in `downloads` like any other). */
  script(answer: MediaAnswer): string {
    checkMediaAnswer(answer)
    const directPath = `/v/t62.sim-${++this.counter}/scripted`
    this.scripted.set(directPath, answer)
    return directPath
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

  /** The CDN dropped the file: GETs answer `status` from now on. */
  expire(directPath: string, status: 404 | 410 = 410): void {
    const media = this.uploads.get(directPath)
    if (media) media.expired = status
  }

  /** A phone uploaded the file again: the same encrypted bytes under a new direct path. */
  reupload(directPath: string): StoredMedia | undefined {
    const media = this.uploads.get(directPath)
    return media ? this.store(media.bytes, directPath.replace(/^\/v\/t62\.sim-\d+/, '')) : undefined
  }

  /** GETs of this path (`*`: of every path) wait, headers unsent, until the returned function is called. */
  hold(directPath: string): () => void {
    let open!: () => void
    const release = new Promise<void>((resolve) => {
      open = resolve
    })
    this.held.set(directPath, { release, open })
    return () => {
      this.held.delete(directPath)
      open()
    }
  }

  async stop(): Promise<void> {
    for (const { open } of this.held.values()) open()
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}
