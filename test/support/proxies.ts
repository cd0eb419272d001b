import { createServer as createHttpServer, type IncomingMessage } from 'node:http'
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net'

/** One tunnel a proxy opened (or refused): where to, as whom. */
export interface ProxiedConnection {
  target: string
  user?: string
  accepted: boolean
}

export interface LoopbackProxy {
  /** e.g. http://user:secret@127.0.0.1:PORT, or without credentials when the proxy asks for none. */
  url: string
  port: number
  connections: ProxiedConnection[]
  /** Tunnels accepted to `host:port` (credentials checked). */
  tunnelsTo(target: string): number
  close(): Promise<void>
}

interface Credentials {
  user: string
  password: string
}

const tunnel = (client: Socket, host: string, port: number, onOpen: (upstream: Socket) => void, onFail: () => void) => {
  const upstream = connect({ host, port })
  upstream.once('connect', () => {
    onOpen(upstream)
    upstream.pipe(client)
    client.pipe(upstream)
  })
  upstream.once('error', () => onFail())
  client.once('error', () => upstream.destroy())
  client.once('close', () => upstream.destroy())
  upstream.once('close', () => client.destroy())
}

function loopbackProxy(server: Server, scheme: string, connections: ProxiedConnection[], credentials?: Credentials) {
  const sockets = new Set<Socket>()
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  return new Promise<LoopbackProxy>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port
      const auth = credentials
        ? `${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@`
        : ''
      resolve({
        url: `${scheme}://${auth}127.0.0.1:${port}`,
        port,
        connections,
        tunnelsTo: (target) => connections.filter((c) => c.accepted && c.target === target).length,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy()
            server.close(() => done())
          }),
      })
    }),
  )
}

/**
 * An HTTP proxy that only tunnels (CONNECT, as https-proxy-agent and undici's ProxyAgent ask),
 * on loopback. With credentials, a CONNECT without the right Proxy-Authorization is 407.
 */
export function startConnectProxy(credentials?: Credentials): Promise<LoopbackProxy> {
  const connections: ProxiedConnection[] = []
  const server = createHttpServer((_req, res) => {
    res.writeHead(405).end() // plain proxying of http:// requests is not offered
  })
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? ''
    const header = req.headers['proxy-authorization'] ?? ''
    const given = header.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString() : undefined
    const user = given?.split(':')[0]
    const authorised = !credentials || given === `${credentials.user}:${credentials.password}`
    if (!authorised) {
      connections.push({ target, ...(user ? { user } : {}), accepted: false })
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n')
      return
    }
    const separator = target.lastIndexOf(':')
    const host = target.slice(0, separator).replace(/^\[|\]$/g, '')
    tunnel(
      client,
      host,
      Number(target.slice(separator + 1)),
      (upstream) => {
        connections.push({ target, ...(user ? { user } : {}), accepted: true })
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        if (head.length) upstream.write(head)
      },
      () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'),
    )
  })
  return loopbackProxy(server, 'http', connections, credentials)
}

/**
 * A SOCKS5 proxy (RFC 1928, CONNECT only) on loopback. With credentials it offers only
 * user/password authentication (RFC 1929) and closes on a wrong pair; without, only "none".
 */
export function startSocksProxy(credentials?: Credentials): Promise<LoopbackProxy> {
  const connections: ProxiedConnection[] = []
  const server = createServer((client) => {
    let buffer = Buffer.alloc(0)
    let stage: 'greeting' | 'auth' | 'request' | 'open' = 'greeting'
    let user: string | undefined
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      for (;;) {
        if (stage === 'greeting') {
          if (buffer.length < 2 || buffer.length < 2 + buffer[1]!) return
          const methods = [...buffer.subarray(2, 2 + buffer[1]!)]
          buffer = buffer.subarray(2 + buffer[1]!)
          const wanted = credentials ? 0x02 : 0x00
          if (!methods.includes(wanted)) return void client.end(Buffer.from([0x05, 0xff]))
          client.write(Buffer.from([0x05, wanted]))
          stage = credentials ? 'auth' : 'request'
        } else if (stage === 'auth') {
          if (buffer.length < 2) return
          const userLength = buffer[1]!
          if (buffer.length < 3 + userLength) return
          const passwordLength = buffer[2 + userLength]!
          if (buffer.length < 3 + userLength + passwordLength) return
          user = buffer.subarray(2, 2 + userLength).toString()
          const password = buffer.subarray(3 + userLength, 3 + userLength + passwordLength).toString()
          buffer = buffer.subarray(3 + userLength + passwordLength)
          if (user !== credentials!.user || password !== credentials!.password) {
            connections.push({ target: '(authentication)', user, accepted: false })
            return void client.end(Buffer.from([0x01, 0x01]))
          }
          client.write(Buffer.from([0x01, 0x00]))
          stage = 'request'
        } else if (stage === 'request') {
          if (buffer.length < 5) return
          const type = buffer[3]
          const addressLength = type === 0x01 ? 4 : type === 0x04 ? 16 : 1 + buffer[4]!
          if (buffer.length < 4 + addressLength + 2) return
          const raw = buffer.subarray(4, 4 + addressLength)
          const host =
            type === 0x01
              ? [...raw].join('.')
              : type === 0x04
                ? (raw.toString('hex').match(/.{4}/g) ?? []).join(':')
                : raw.subarray(1).toString()
          const port = buffer.readUInt16BE(4 + addressLength)
          buffer = buffer.subarray(4 + addressLength + 2)
          const target = `${type === 0x04 ? `[${host}]` : host}:${port}`
          stage = 'open'
          client.off('data', onData)
          const rest = buffer
          tunnel(
            client,
            host,
            port,
            (upstream) => {
              connections.push({ target, ...(user ? { user } : {}), accepted: true })
              client.write(Buffer.from([0x05, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0]))
              if (rest.length) upstream.write(rest)
            },
            () => client.end(Buffer.from([0x05, 0x05, 0x00, 0x01, 0, 0, 0, 0, 0, 0])),
          )
          return
        } else return
      }
    }
    client.on('data', onData)
    client.on('error', () => client.destroy())
  })
  return loopbackProxy(server, 'socks5', connections, credentials)
}

/** A port on loopback where nothing listens (a dead proxy): bound, then closed. */
export async function deadPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

export interface NonProxyService {
  port: number
  /** Connections it took. */
  connections(): number
  close(): Promise<void>
}

/**
 * An open TCP port on loopback that is no proxy (an SSH-like banner, then it hangs up): what a
 * probe through a workspace's proxy setting would find behind a host's private interface.
 */
export async function startNonProxyService(): Promise<NonProxyService> {
  let taken = 0
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    taken++
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
    socket.end('SSH-2.0-OpenSSH_9.6\r\n')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => taken,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => done())
      }),
  }
}
