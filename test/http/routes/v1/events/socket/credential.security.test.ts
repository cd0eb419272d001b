import { sign } from 'hono/jwt'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serve, type RunningServer } from '../../../../../../src/runtime/serve'
import { isRefused, openSocket, type OpenSocket } from '../../../../../support/event-socket'
import { startSimulatedGateway, type SimulatedGateway } from '../../../../../support/simulated-gateway'

const ADMIN_KEY = 'admin-key-0123456789-0123456789-abcdef'
const JWT_SECRET = 'jwt-secret-0123456789-0123456789-abcdef'
const ACCOUNT = '15550029601'
const CONTACT = '15551239601'

const closesWithin = (socket: OpenSocket, ms: number) =>
  Promise.race([socket.closed, new Promise<undefined>((resolve) => setTimeout(resolve, ms, undefined))])

describe('an event socket lives no longer than the credential it was opened with', () => {
  let t: SimulatedGateway
  let server: RunningServer
  const open: OpenSocket[] = []
  beforeAll(async () => {
    t = await startSimulatedGateway({
      plan: 'paid',
      config: { adminApiKey: ADMIN_KEY, jwtSecret: JWT_SECRET },
      simulator: { contacts: [CONTACT] },
    })
    server = await serve({ fetch: t.gateway.app.fetch, port: 0, hostname: '127.0.0.1' })
    await t.pairByQr('revocation', ACCOUNT)
  }, 60_000)
  afterAll(async () => {
    for (const socket of open) socket.close()
    t.gateway.endStreams()
    await server.close()
    await t.close()
  })

  const url = `ws://127.0.0.1:PORT/v1/events/ws`
  const socket = async (credential: string, how: 'subprotocol' | 'frame' = 'subprotocol') => {
    const opened = await openSocket(
      url.replace('PORT', String(server.port)),
      how === 'subprotocol'
        ? { protocols: ['wag.events.v1', `wag.bearer.${credential}`] }
        : { firstFrame: JSON.stringify({ type: 'auth', token: credential }) },
    )
    if (isRefused(opened)) throw new Error(`refused: ${opened.status}`)
    open.push(opened)
    await opened.until((frames) => frames.some((f) => f.json.type === 'ready'))
    return opened
  }
  const admin = (path: string, method = 'GET', body?: unknown) =>
    t.gateway.app.request(path, {
      method,
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  const issueKey = async () => (await (await admin('/v1/admin/keys', 'POST', { workspace: 'test' })).json()) as any
  const receive = async (text: string, witness: OpenSocket) => {
    await t.sim.contact(CONTACT).send({ text }, { to: ACCOUNT })
    await witness.until((frames) => frames.some((f) => f.json.type === 'message.received' && f.raw.includes(text)))
  }
  const texts = (s: OpenSocket) =>
    s
      .events()
      .filter((e) => e.json.type === 'message.received')
      .map((e) => e.raw)

  it('closes (4401) the socket of a key revoked mid-stream, within a poll; nothing arrives after', async () => {
    const { keyId, key } = await issueKey()
    const revoked = await socket(key, 'frame')
    const witness = await socket(t.key)
    await receive('before the revocation', revoked)

    expect((await admin(`/v1/admin/keys/${keyId}`, 'DELETE')).status).toBe(200)
    expect(await closesWithin(revoked, 2_000)).toEqual({ code: 4401, reason: 'credential revoked' })
    await receive('after the revocation', witness)
    expect(texts(revoked).some((raw) => raw.includes('after the revocation'))).toBe(false)
    expect(texts(revoked).some((raw) => raw.includes('before the revocation'))).toBe(true)
    expect(await closesWithin(witness, 300)).toBeUndefined()
    const again = await openSocket(url.replace('PORT', String(server.port)), {
      protocols: ['wag.events.v1', `wag.bearer.${key}`],
    })
    expect(again).toMatchObject({ status: 401, body: { error: 'unauthorized' } })
  })

  it('closes a JWT’s socket at its exp', async () => {
    const exp = Math.floor(Date.now() / 1000) + 2
    const token = await sign({ workspace: 'test', exp }, JWT_SECRET, 'HS256')
    const expiring = await socket(token)
    await receive('while the token is valid', expiring)
    expect(await closesWithin(expiring, 4_000)).toEqual({ code: 4401, reason: 'credential expired' })
    const closedAt = Date.now()
    expect(closedAt).toBeGreaterThanOrEqual(exp * 1000)
    expect(closedAt).toBeLessThan(exp * 1000 + 1_000)
  })
})

describe('event sockets and shutdown', () => {
  it('close with 1001 when the gateway ends its streams, and the HTTP server closes', async () => {
    const t = await startSimulatedGateway({ simulator: { contacts: [CONTACT] } })
    const server = await serve({ fetch: t.gateway.app.fetch, port: 0, hostname: '127.0.0.1' })
    const opened = await openSocket(`ws://127.0.0.1:${server.port}/v1/events/ws`, {
      protocols: ['wag.events.v1', `wag.bearer.${t.key}`],
    })
    if (isRefused(opened)) throw new Error('refused')
    await opened.until((frames) => frames.some((f) => f.json.type === 'ready'))
    // And one still waiting for its auth frame: closed at the stop, not at its 5 s deadline.
    const waiting = await openSocket(`ws://127.0.0.1:${server.port}/v1/events/ws`)
    if (isRefused(waiting)) throw new Error('refused')
    const stopped = Date.now()
    const closed = server.close()
    t.gateway.endStreams()
    expect(await opened.closed).toEqual({ code: 1001, reason: 'gateway stopping' })
    expect(await waiting.closed).toEqual({ code: 1001, reason: 'gateway stopping' })
    expect(Date.now() - stopped).toBeLessThan(4_000)
    await closed
    await t.close()
  })
})
