import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { HostResolver } from '../../src/net/host-resolver'
import { createWebhookSender, type WebhookSender } from '../../src/webhooks/sender'
import { makeMediaTls } from '../wa-sim/certificates'

interface Received {
  host: string | undefined
  path: string
  headers: http.IncomingHttpHeaders
  body: string
  /** The TCP connection it came on (per server, from 1). */
  connection: number
}

/** A receiver on one loopback address that records what reaches it and answers with `answer`. */
async function receiver(
  address: string,
  port = 0,
  answer: (request: http.IncomingMessage, response: http.ServerResponse) => void = (_q, s) => s.writeHead(204).end(),
) {
  const received: Received[] = []
  let connections = 0
  let open = 0
  const server = http.createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk) => {
      body += chunk
    })
    request.on('end', () => {
      const connection = (request.socket as unknown as { n: number }).n
      received.push({ host: request.headers.host, path: request.url ?? '', headers: request.headers, body, connection })
      answer(request, response)
    })
  })
  server.on('connection', (socket) => {
    ;(socket as unknown as { n: number }).n = ++connections
    open++
    socket.on('close', () => open--)
  })
  await new Promise<void>((resolve) => server.listen(port, address, resolve))
  return {
    port: (server.address() as AddressInfo).port,
    received,
    get openConnections() {
      return open
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

const until = async (done: () => boolean) => {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10))
  return done()
}

describe('the webhook sender', () => {
  const cleanup: (() => unknown)[] = []
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step()
  })
  const sender = (resolver: HostResolver, timeoutMs = 2_000): WebhookSender => {
    const made = createWebhookSender({
      allowHttp: true,
      allowPrivateAddresses: true,
      timeoutMs,
      endpointConcurrency: 2,
      resolver,
    })
    cleanup.push(() => made.close())
    return made
  }
  const pinnedTo =
    (...answers: string[]): HostResolver =>
    async () => [{ address: answers.length > 1 ? answers.shift()! : answers[0]!, family: 4 }]

  it('POSTs the body and headers to the address the name resolved to, with the name as Host', async () => {
    const server = await receiver('127.0.0.1')
    cleanup.push(server.close)
    const post = sender(pinnedTo('127.0.0.1'))
    const body = JSON.stringify({ event: 'message.received', text: 'olá 👋' })
    const result = await post.post(
      { url: `http://hooks.invalid:${server.port}/hook?x=1`, headers: { 'webhook-id': 'evt_1' }, body },
      new AbortController().signal,
    )
    expect(result).toEqual({ delivered: true, statusCode: 204 })
    expect(server.received).toHaveLength(1)
    expect(server.received[0]).toMatchObject({ host: `hooks.invalid:${server.port}`, path: '/hook?x=1', body })
    expect(server.received[0]!.headers['webhook-id']).toBe('evt_1')
    expect(server.received[0]!.headers['content-length']).toBe(String(Buffer.byteLength(body)))
  })

  it('keeps a connection alive for the same address and never reuses it for another one', async () => {
    const first = await receiver('127.0.0.1')
    cleanup.push(first.close)
    // The same port on another loopback address: one origin, two addresses.
    const second = await receiver('127.0.0.2', first.port)
    cleanup.push(second.close)
    const post = sender(pinnedTo(...Array(6).fill('127.0.0.1'), '127.0.0.2'))
    const url = `http://hooks.invalid:${first.port}/hook`
    for (let i = 0; i < 8; i++) {
      const result = await post.post({ url, headers: {}, body: `{"n":${i}}` }, new AbortController().signal)
      expect(result.delivered).toBe(true)
    }
    expect(first.received.map((r) => r.body)).toEqual([0, 1, 2, 3, 4, 5].map((n) => `{"n":${n}}`))
    // Kept alive: at most endpointConcurrency connections, however many POSTs.
    expect(Math.max(...first.received.map((r) => r.connection))).toBeLessThanOrEqual(2)
    expect(second.received.map((r) => r.body)).toEqual(['{"n":6}', '{"n":7}'])
  })

  it('over TLS: connects to the pinned address and refuses a certificate it does not trust', async () => {
    const tls = await makeMediaTls() // a leaf for 127.0.0.1 under a CA the sender does not know
    let requests = 0
    const server = https.createServer({ key: tls.keyPem, cert: tls.certPem }, (_q, response) => {
      requests++
      response.writeHead(204).end()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    cleanup.push(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections()
          server.close(() => resolve())
        }),
    )
    const port = (server.address() as AddressInfo).port
    const result = await sender(pinnedTo('127.0.0.1')).post(
      { url: `https://hooks.invalid:${port}/hook`, headers: {}, body: '{}' },
      new AbortController().signal,
    )
    expect(result.delivered).toBe(false)
    // A certificate error, not ENOTFOUND (.invalid never resolves): the socket went to the pinned
    // address and met this server's certificate.
    expect(result).toMatchObject({ statusCode: null, error: expect.stringMatching(/CERT|SIGNATURE|ISSUER/) })
    expect(requests).toBe(0)
  })

  it('does not follow a redirect: a 3xx is a failed delivery and its Location is never asked', async () => {
    const elsewhere = await receiver('127.0.0.1')
    cleanup.push(elsewhere.close)
    const server = await receiver('127.0.0.1', 0, (_q, response) =>
      response.writeHead(302, { location: `http://127.0.0.1:${elsewhere.port}/stolen` }).end(),
    )
    cleanup.push(server.close)
    const result = await sender(pinnedTo('127.0.0.1')).post(
      { url: `http://hooks.invalid:${server.port}/hook`, headers: {}, body: '{}' },
      new AbortController().signal,
    )
    expect(result).toEqual({ delivered: false, statusCode: 302, error: 'HTTP 302' })
    expect(elsewhere.received).toEqual([])
  })

  it('reads a large answer and drops it, and the next POST still goes out', async () => {
    const server = await receiver('127.0.0.1', 0, (_q, response) => response.writeHead(200).end(Buffer.alloc(1 << 20)))
    cleanup.push(server.close)
    const post = sender(pinnedTo('127.0.0.1'))
    const url = `http://hooks.invalid:${server.port}/hook`
    expect(await post.post({ url, headers: {}, body: '{}' }, new AbortController().signal)).toEqual({
      delivered: true,
      statusCode: 200,
    })
    expect(await post.post({ url, headers: {}, body: '{}' }, new AbortController().signal)).toEqual({
      delivered: true,
      statusCode: 200,
    })
    expect(server.received).toHaveLength(2)
  })

  it('gives up on an endpoint that never answers, and on a stop', async () => {
    const server = await receiver('127.0.0.1', 0, () => {})
    cleanup.push(server.close)
    const post = sender(pinnedTo('127.0.0.1'), 300)
    const url = `http://hooks.invalid:${server.port}/hook`
    expect(await post.post({ url, headers: {}, body: '{}' }, new AbortController().signal)).toEqual({
      delivered: false,
      statusCode: null,
      error: 'no answer within 300 ms',
    })
    const stop = new AbortController()
    const stopped = post.post({ url, headers: {}, body: '{}' }, stop.signal)
    await until(() => server.received.length === 2)
    stop.abort()
    expect(await stopped).toMatchObject({ delivered: false, statusCode: null })
  })

  it('closes its kept-alive connections on close()', async () => {
    const server = await receiver('127.0.0.1')
    cleanup.push(server.close)
    const post = sender(pinnedTo('127.0.0.1'))
    await post.post(
      { url: `http://hooks.invalid:${server.port}/hook`, headers: {}, body: '{}' },
      new AbortController().signal,
    )
    expect(server.openConnections).toBe(1)
    post.close()
    expect(await until(() => server.openConnections === 0)).toBe(true)
  })
})
