import { connect, type Socket } from 'node:net'

export interface RawResponse {
  status: number
  headers: Record<string, string>
  body: string
}

/**
 * One HTTP/1.1 connection driven by hand, so a test controls exactly which socket each request
 * goes on (fetch and http.Agent quietly open a new one when the server has closed the old).
 */
export interface RawConnection {
  /** Sends a request on this connection; rejects when the connection ends before a whole answer. */
  request(method: string, path: string, headers?: Record<string, string>, body?: string | Buffer): Promise<RawResponse>
  /** Resolves when the server closes the connection. */
  closed: Promise<void>
  isClosed(): boolean
  destroy(): void
}

export function rawConnection(port: number, host = '127.0.0.1'): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, host)
    let buffer = Buffer.alloc(0)
    let ended = false
    let waiting: { resolve(r: RawResponse): void; reject(e: Error): void } | undefined
    let onEnd: () => void = () => {}
    const closed = new Promise<void>((done) => (onEnd = done))

    const tryParse = () => {
      const head = buffer.indexOf('\r\n\r\n')
      if (!waiting || head < 0) return
      const [statusLine, ...lines] = buffer.subarray(0, head).toString('latin1').split('\r\n')
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).trim().toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      )
      const length = Number(headers['content-length'] ?? 0)
      if (buffer.length < head + 4 + length) return
      const body = buffer.subarray(head + 4, head + 4 + length).toString('utf8')
      buffer = buffer.subarray(head + 4 + length)
      const w = waiting
      waiting = undefined
      w.resolve({ status: Number(statusLine!.split(' ')[1]), headers, body })
    }
    const finish = (error: Error) => {
      ended = true
      onEnd()
      waiting?.reject(error)
      waiting = undefined
    }
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      tryParse()
    })
    socket.on('error', (error) => finish(error))
    socket.on('close', () => finish(new Error('connection closed before a whole answer')))
    socket.once('connect', () =>
      resolve({
        closed,
        isClosed: () => ended,
        destroy: () => socket.destroy(),
        request: (method, path, headers = {}, body) =>
          new Promise((res, rej) => {
            if (ended) return rej(new Error('connection already closed'))
            waiting = { resolve: res, reject: rej }
            const payload = body === undefined ? undefined : Buffer.from(body)
            const all = {
              host: `${host}:${port}`,
              ...headers,
              ...(payload ? { 'content-length': String(payload.length) } : {}),
            }
            const text = `${method} ${path} HTTP/1.1\r\n${Object.entries(all)
              .map(([k, v]) => `${k}: ${v}\r\n`)
              .join('')}\r\n`
            socket.write(payload ? Buffer.concat([Buffer.from(text), payload]) : text)
          }),
      }),
    )
    socket.once('error', reject)
  })
}

/**
 * A client that writes its whole request before reading a byte of the answer (the answer waits
 * in its receive buffer meanwhile), then reads until the server closes. Resolves with what it
 * read: a reset from the server throws that buffer away, so a lost answer reads as ''.
 */
export function writeWholeThenRead(port: number, request: Buffer, host = '127.0.0.1'): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, host)
    socket.pause()
    const chunks: Buffer[] = []
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', () => socket.resume()) // a reset: read what is left (nothing)
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')))
    socket.write(request, () => socket.resume())
  })
}

/**
 * A client that sends `head` then body bytes for ever, `chunk` bytes every `everyMs` (0: as fast
 * as the socket takes them), until the server closes. Resolves with how long that took and how
 * many body bytes were handed to the socket.
 */
export function sendForEver(
  port: number,
  head: string,
  { chunk, everyMs }: { chunk: number; everyMs: number },
  host = '127.0.0.1',
): Promise<{ ms: number; bytes: number }> {
  return new Promise((resolve) => {
    const started = performance.now()
    // Half-open allowed: the server's end of its answer does not end this client's sending.
    const socket = connect({ port, host, allowHalfOpen: true })
    const block = Buffer.alloc(chunk, 'x')
    let bytes = 0
    let timer: NodeJS.Timeout | undefined
    const send = () => {
      if (socket.destroyed) return
      bytes += chunk
      const more = socket.write(block)
      if (everyMs > 0) timer = setTimeout(send, everyMs)
      else if (more) setImmediate(send)
      else socket.once('drain', send)
    }
    socket.on('error', () => {})
    socket.on('data', () => {})
    socket.on('close', () => {
      clearTimeout(timer)
      resolve({ ms: performance.now() - started, bytes })
    })
    socket.write(head, send)
  })
}
