import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve as honoServe } from '@hono/node-server'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { acceptWebSockets } from '../../../../../../src/index'
import { serve, type RunningServer } from '../../../../../../src/runtime/serve'
import { isRefused, openSocket, type OpenSocket, type SocketOptions } from '../../../../../support/event-socket'
import { startTestGateway } from '../../../../../support/gateway'
import { rawConnection } from '../../../../../support/raw-http'
import { pollUntil } from '../../../../../support/poll'
import { queryFile } from '../../../../../support/sqlite-file'
import { startSimulatedGateway, type SimulatedGateway } from '../../../../../support/simulated-gateway'

const CONTACT = '15551230001'

describe('GET /v1/events/ws', () => {
  let t: SimulatedGateway
  let server: RunningServer
  const open: OpenSocket[] = []
  beforeAll(async () => {
    t = await startSimulatedGateway({ plan: 'paid', simulator: { contacts: [CONTACT] } })
    server = await serve({ fetch: t.gateway.app.fetch, port: 0, hostname: '127.0.0.1' })
  }, 60_000)
  afterAll(async () => {
    for (const socket of open) socket.close()
    t.gateway.endStreams()
    await server.close()
    await t.close()
  })

  const url = (query = '') => `ws://127.0.0.1:${server.port}/v1/events/ws${query}`
  const connect = async (query = '', options: SocketOptions = {}) => {
    const socket = await openSocket(url(query), options)
    if (isRefused(socket)) throw new Error(`refused: ${socket.status} ${JSON.stringify(socket.body)}`)
    open.push(socket)
    return socket
  }
  const bySubprotocol = (query = '', key = t.key) =>
    connect(query, { protocols: ['wag.events.v1', `wag.bearer.${key}`] })
  const byAuthFrame = (query = '', key = t.key) =>
    connect(query, { firstFrame: JSON.stringify({ type: 'auth', token: key }) })
  const outboxBody = (eventId: string) =>
    queryFile<{ body: string }>(t.databasePath, 'SELECT body FROM webhook_events WHERE id = ?', eventId)[0]?.body

  it('authenticates by subprotocol, echoes only wag.events.v1, and sends each event with the webhook’s very body', async () => {
    const socket = await bySubprotocol()
    expect(socket.protocol).toBe('wag.events.v1')
    await socket.until((frames) => frames.some((f) => f.json.type === 'ready'))
    expect(socket.frames[0]!.raw).toBe('{"type":"ready"}')
    const id = await t.pairByQr('live', '15550009001')
    await socket.until((frames) =>
      frames.some((f) => f.json.type === 'session.status' && f.json.data.data.status === 'connected'),
    )
    const events = socket.events()
    expect(events.map((e) => e.json.type)).toEqual(expect.arrayContaining(['session.status', 'session.qr']))
    for (const { raw, json } of events) {
      expect(json.data).toMatchObject({ eventId: json.id, type: json.type, sessionId: id })
      // The frame splices the stored body in: the very bytes a webhook delivery (and SSE) sends.
      expect(raw).toBe(`{"id":"${json.id}","type":"${json.type}","data":${outboxBody(json.id)}}`)
    }
  })

  it('authenticates by a first auth frame, keeps to ?sessionId= and resumes ?after= an eventId', async () => {
    const a = await t.pairByQr('a', '15550009002')
    const onlyA = await byAuthFrame(`?sessionId=${a}`)
    expect(onlyA.protocol).toBe('')
    await onlyA.until((frames) => frames.some((f) => f.json.type === 'ready'))
    const b = await t.pairByQr('b', '15550009003')
    await t.post('/v1/message/text', { sessionId: a, phone: CONTACT, message: 'one' })
    await t.post('/v1/message/text', { sessionId: a, phone: CONTACT, message: 'two' })
    await onlyA.until(() => onlyA.events().filter((e) => e.json.type === 'message.status').length >= 2)
    const got = onlyA.events()
    expect(got.every((e) => e.json.data.sessionId === a)).toBe(true)
    expect(queryFile(t.databasePath, 'SELECT 1 FROM webhook_events WHERE session_id = ?', b).length).toBeGreaterThan(0)
    onlyA.close()

    const [first, second] = got
    const resumed = await bySubprotocol(`?sessionId=${a}&after=${first!.json.id}`)
    await resumed.until(() => resumed.events().length >= got.length - 1)
    expect(resumed.events()[0]!.raw).toBe(second!.raw)
    // Last-Event-ID works too, for clients that set headers; so does Authorization.
    const byHeader = await connect(`?sessionId=${a}`, {
      headers: { authorization: `Bearer ${t.key}`, 'last-event-id': first!.json.id },
    })
    await byHeader.until(() => byHeader.events().length >= 1)
    expect(byHeader.events()[0]!.raw).toBe(second!.raw)
  })

  it('resumes after an eventId it does not know (or another workspace’s) from the oldest event kept, as SSE does', async () => {
    const socket = await bySubprotocol('?after=evt_unknown')
    await socket.until(() => socket.events().length >= 3)
    const oldest = queryFile<{ id: string }>(t.databasePath, 'SELECT id FROM webhook_events ORDER BY rowid LIMIT 1')[0]
    expect(socket.events()[0]!.json.id).toBe(oldest!.id)
  })

  it('answers the same JSON errors as GET /v1/events before the upgrade', async () => {
    const refused = async (query: string, options: SocketOptions) => {
      const answer = await openSocket(url(query), options)
      if (!isRefused(answer)) throw new Error('upgraded')
      return answer
    }
    const withKey = (key: string) => ({ protocols: ['wag.events.v1', `wag.bearer.${key}`] })
    expect(await refused('', withKey('wag_not-a-key'))).toMatchObject({ status: 401, body: { error: 'unauthorized' } })
    const other = t.addWorkspace('other-team')
    const mine = (await t.listSessions())[0]!.sessionId
    expect(await refused(`?sessionId=${mine}`, withKey(other.key))).toMatchObject({
      status: 404,
      body: { error: 'not_found' },
    })
    expect(await refused('?after=evt_1%20forged', withKey(t.key))).toMatchObject({
      status: 400,
      body: { error: 'validation_error' },
    })
    // The credential as a protocol, without the protocol to select: a browser would fail the handshake.
    expect(await refused('', { protocols: [`wag.bearer.${t.key}`] })).toMatchObject({
      status: 400,
      body: { error: 'validation_error' },
    })
    // A plain GET is no handshake.
    const plain = await fetch(`http://127.0.0.1:${server.port}/v1/events/ws`, {
      headers: { authorization: `Bearer ${t.key}` },
    })
    expect(plain.status).toBe(400)
    expect(await plain.json()).toMatchObject({ error: 'validation_error' })
    // A handshake through a server that cannot upgrade (no acceptWebSockets): a 400 saying so, not a 500.
    const unserved = await t.request('/v1/events/ws', {
      headers: { upgrade: 'websocket', connection: 'upgrade', 'sec-websocket-version': '13' },
    })
    expect(unserved.status).toBe(400)
    expect(JSON.stringify(await unserved.json())).toContain('does not serve WebSockets')
  })

  it('closes with 4000 + the status when the auth frame is refused', async () => {
    const bad = await byAuthFrame('', 'wag_not-a-key')
    expect(await bad.closed).toEqual({ code: 4401, reason: 'Invalid or revoked API key' })
    const other = t.addWorkspace('stranger')
    const mine = (await t.listSessions())[0]!.sessionId
    const foreign = await byAuthFrame(`?sessionId=${mine}`, other.key)
    expect((await foreign.closed).code).toBe(4404)
    expect(foreign.frames).toEqual([])
  })

  it('closes a socket that sends garbage, binary, an oversized frame, or nothing', async () => {
    const garbage = await connect('', { firstFrame: 'not json' })
    expect((await garbage.closed).code).toBe(4401)
    const binary = await connect('', { firstFrame: Buffer.from([1, 2, 3]) })
    expect((await binary.closed).code).toBe(1003)
    const huge = await connect('', { firstFrame: 'x'.repeat(64 * 1024) })
    expect((await huge.closed).code).toBe(1009)
    // After auth too: the frame is refused before it is buffered.
    const authed = await bySubprotocol()
    await authed.until((frames) => frames.some((f) => f.json.type === 'ready'))
    authed.ws.send('y'.repeat(64 * 1024))
    expect((await authed.closed).code).toBe(1009)

    const silent = await connect()
    const started = Date.now()
    expect(await silent.closed).toEqual({ code: 4401, reason: 'no auth frame within 5 s' })
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_500)
    expect(silent.frames).toEqual([])
  }, 15_000)

  it('shares GET /v1/events’ 10 streams per workspace: the next is 429 (or 4429) until one closes', async () => {
    const capped = t.addWorkspace('capped')
    const sockets = await Promise.all(Array.from({ length: 10 }, () => bySubprotocol('', capped.key)))
    const refusedSocket = await openSocket(url(), { protocols: ['wag.events.v1', `wag.bearer.${capped.key}`] })
    expect(refusedSocket).toMatchObject({ status: 429, body: { error: 'rate_limited', details: { limit: 10 } } })
    const sse = await t.request('/v1/events', { headers: { authorization: `Bearer ${capped.key}` } })
    expect(sse.status).toBe(429)
    const late = await byAuthFrame('', capped.key)
    expect((await late.closed).code).toBe(4429)

    sockets[0]!.close()
    await sockets[0]!.closed
    const again = await bySubprotocol('', capped.key)
    await again.until((frames) => frames.some((f) => f.json.type === 'ready'))
  })

  it('lets at most 100 sockets wait for their auth frame at once: the next is 429 until one authenticates or closes', async () => {
    const waiting = await Promise.all(Array.from({ length: 100 }, () => connect()))
    const refused = await openSocket(url())
    expect(refused).toMatchObject({ status: 429, body: { error: 'rate_limited', details: { limit: 100 } } })
    // Those with the credential in the handshake wait for nothing: not counted.
    const keyed = await bySubprotocol()
    await keyed.until((frames) => frames.some((f) => f.json.type === 'ready'))
    // One authenticates: its place is free.
    waiting[0]!.ws.send(JSON.stringify({ type: 'auth', token: t.key }))
    await waiting[0]!.until((frames) => frames.some((f) => f.json.type === 'ready'))
    const afterAuth = await connect()
    expect(await openSocket(url())).toMatchObject({ status: 429 })
    // One closes: its place is free once the server heard the close (a moment after the client).
    waiting[1]!.close()
    const afterClose = await pollUntil(
      () => openSocket(url()),
      (socket) => !isRefused(socket),
      { timeoutMs: 3_000, what: 'a place freed by the close' },
    )
    expect(await openSocket(url())).toMatchObject({ status: 429 })
    for (const socket of [...waiting, afterAuth, afterClose as OpenSocket, keyed]) socket.close()
  }, 30_000)

  it('gives the slot back when a handshake the route admitted is malformed and never opens', async () => {
    const capped = t.addWorkspace('malformed')
    // The route admits it (credential, slot); ws then refuses it: no Sec-WebSocket-Key.
    for (let i = 0; i < 12; i++) {
      const connection = await rawConnection(server.port)
      const answer = await connection.request('GET', '/v1/events/ws', {
        upgrade: 'websocket',
        connection: 'Upgrade',
        'sec-websocket-version': '13',
        'sec-websocket-protocol': `wag.events.v1, wag.bearer.${capped.key}`,
      })
      expect(answer.status).toBe(400)
      connection.destroy()
    }
    const sockets = await Promise.all(Array.from({ length: 10 }, () => bySubprotocol('', capped.key)))
    await Promise.all(sockets.map((s) => s.until((frames) => frames.some((f) => f.json.type === 'ready'))))
  })
})

describe('GET /v1/events/ws in an app that mounts the gateway under a prefix', () => {
  it('upgrades on the embedder’s own @hono/node-server with acceptWebSockets, the auth frame and the 401 as at the root', async () => {
    const t = await startTestGateway()
    const parent = new Hono().get('/', (c) => c.text('my app')).route('/wa', t.gateway.app)
    const server = honoServe({ fetch: parent.fetch, port: 0, hostname: '127.0.0.1' }) as Server
    acceptWebSockets(server, parent.fetch)
    await once(server, 'listening')
    const base = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/wa/v1/events/ws`
    try {
      const socket = await openSocket(base, { firstFrame: JSON.stringify({ type: 'auth', token: t.key }) })
      if (isRefused(socket)) throw new Error(`refused: ${socket.status}`)
      await socket.until((frames) => frames.some((f) => f.json.type === 'ready'))
      socket.close()
      expect(await openSocket(base, { protocols: ['wag.events.v1', 'wag.bearer.wag_nope'] })).toMatchObject({
        status: 401,
        body: { error: 'unauthorized' },
      })
    } finally {
      t.gateway.endStreams()
      server.close()
      await t.close()
    }
  })
})
