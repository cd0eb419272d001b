/**
 * How the edge Worker finds a request's session and validates the two requests it answers with
 * the workspace object (connect: the session cap; contact check: the quota), under local
 * `wrangler dev` against the simulator: a refused body answers what the Node gateway answers,
 * reserves nothing and claims nothing, and each session's request reaches its own Durable Object
 * whether the route names the session in its path, its query or its body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ControlApi } from '../wa-sim/control-api'
import { WhatsAppSimulator } from '../wa-sim/simulator'
import { startTestGateway, type TestGateway } from '../support/gateway'
import { tempDir } from '../support/temp-dir'
import { edgeJwt, freePort, startWranglerDev, type WranglerDev } from './wrangler-dev'

const JWT_SECRET = 'edge-routing-secret-0123456789abcdef'
const CONTACT = '15551230001'
/** Never reached: nothing here waits for a delivery. */
const WEBHOOK_URL = 'https://hooks.invalid/edge-routing'

let sim: WhatsAppSimulator
let control: ControlApi
let dev: WranglerDev
let node: TestGateway
let token: string
const state = tempDir('edge-routing-')

type Answer = { status: number; headers: Headers; body: any }

const read = async (response: Response): Promise<Answer> => ({
  status: response.status,
  headers: response.headers,
  body: await response.json(),
})

/** workerd's V8 says where a JSON parse failed (`… (line 1 column 30)`), Node's does not yet. */
const parserPosition = / \(line \d+ column \d+\)/g
const sameAnswer = (answer: Answer) => JSON.parse(JSON.stringify(answer.body).replaceAll(parserPosition, ''))

/** The same raw request to the Worker (with the JWT) and to the Node gateway (with its key). */
const both = async (method: string, path: string, body: string): Promise<{ edge: Answer; node: Answer }> => {
  const init = (authorization: string) => ({
    method,
    headers: { authorization, 'content-type': 'application/json' },
    body,
  })
  const edge = await read(await fetch(`${dev.url}${path}`, init(`Bearer ${token}`)))
  const onNode = await read(await node.request(path, init(`Bearer ${node.key}`)))
  return { edge, node: onNode }
}

const api = async (method: string, path: string, body?: unknown): Promise<Answer> =>
  read(
    await fetch(`${dev.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }),
  )

beforeAll(async () => {
  sim = await WhatsAppSimulator.start({ contacts: [CONTACT] })
  control = await ControlApi.start(sim)
  node = await startTestGateway({ plan: 'paid' })
  const port = await freePort()
  dev = await startWranglerDev({
    port,
    persistDir: state.path,
    env: { WA_SIMULATOR: control.url, JWT_SECRET, EDGE_TEST_HOOKS: 'true', LOG_LEVEL: 'warn' },
  })
  token = await edgeJwt(JWT_SECRET, 'edge-routing')
}, 180_000)

afterAll(async () => {
  await dev?.stop()
  await node?.close()
  await control?.stop()
  await sim?.stop()
  state.cleanup()
}, 60_000)

/** Bodies each route refuses: wrong types, a missing field, unknown fields, not JSON at all. */
const badConnects = [
  '{}',
  JSON.stringify({ sessionName: 42, mode: 'carrier pigeon', surprise: 'x'.repeat(200) }),
  JSON.stringify({ sessionName: 'ok', mode: 'code' }),
  JSON.stringify([1, 2]),
  '{"sessionName": "unterminated',
]
const badChecks = [
  '{}',
  JSON.stringify({ sessionId: '', phones: 'not a list' }),
  JSON.stringify({ sessionId: 'x', phones: [] }),
  JSON.stringify({ sessionId: 'x', phones: Array.from({ length: 30 }, () => ({})) }),
  'null',
  '{"phones": [',
]

describe('edge Worker: validation and routing by the route declarations', () => {
  it('refuses a bad connect body with the Node gateway’s 400, claiming no session name', async () => {
    for (const body of badConnects) {
      const { edge, node } = await both('POST', '/v1/session/connect', body)
      expect(edge.status, body).toBe(400)
      expect(sameAnswer(edge), body).toEqual(sameAnswer(node))
    }
    expect((await api('GET', '/v1/session/all')).body.sessions).toEqual([])
  })

  it('refuses a bad contact-check body with the Node gateway’s 400', async () => {
    for (const body of badChecks) {
      const { edge, node } = await both('POST', '/v1/contact/check', body)
      expect(edge.status, body).toBe(400)
      expect(sameAnswer(edge), body).toEqual(sameAnswer(node))
    }
    // A valid body naming no session of the workspace: the Node gateway's 404.
    const unknown = await both('POST', '/v1/contact/check', JSON.stringify({ sessionId: 'nope', phones: [CONTACT] }))
    expect([unknown.edge.status, unknown.edge.body]).toEqual([404, unknown.node.body])
  })

  it('sends each session’s request to its own object, wherever the route names the session', async () => {
    const ids: string[] = []
    for (const sessionName of ['routing alpha', 'routing beta']) {
      const connect = await api('POST', '/v1/session/connect', { sessionName, webhookUrl: WEBHOOK_URL })
      expect(connect.status, `${JSON.stringify(connect.body)}\n${dev.output().slice(-3000)}`).toBe(200)
      ids.push(connect.body.sessionId)
    }
    const boots = new Set<string>()
    for (const sessionId of ids) {
      // Each session has an object of its own (another object holds no row of this session: 404).
      boots.add((await api('GET', `/__edge/session/${sessionId}`)).body.bootId)
      // In the path
      const qr = await api('GET', `/v1/session/${sessionId}/qr`)
      expect([qr.status, qr.body.sessionId], JSON.stringify(qr.body)).toEqual([200, sessionId])
      const updated = await api('PUT', `/v1/session/update/${sessionId}`, { webhookEvents: ['session.status'] })
      expect([updated.status, updated.body.sessionId], JSON.stringify(updated.body)).toEqual([200, sessionId])
      // In the query
      const messages = await api('GET', `/v1/message/all?sessionId=${sessionId}`)
      expect([messages.status, messages.body.messages], JSON.stringify(messages.body)).toEqual([200, []])
      // In the body: the session's own object answers that it is not connected yet
      const sent = await api('POST', '/v1/message/text', { sessionId, phone: CONTACT, message: 'hello' })
      expect([sent.status, sent.body.error], JSON.stringify(sent.body)).toEqual([409, 'session_not_connected'])
      const replay = await api('POST', '/v1/webhooks/replay', { sessionId, since: '2020-01-01T00:00:00.000Z' })
      expect(replay.status, JSON.stringify(replay.body)).toBe(200)
    }
    expect(boots.size).toBe(2)
    // A session the workspace does not have, in the path, the query or the body: 404 before any object.
    for (const [method, path, body] of [
      ['GET', '/v1/session/nope/qr'],
      ['GET', '/v1/message/all?sessionId=nope'],
      ['POST', '/v1/message/text', { sessionId: 'nope', phone: CONTACT, message: 'hello' }],
    ] as const) {
      const answer = await api(method, path, body)
      expect([answer.status, answer.body.error], `${method} ${path}`).toEqual([404, 'not_found'])
    }
    // A route that names its session in the body, given none there: the edge's own 400.
    const unnamed = await api('POST', '/v1/message/text', { phone: CONTACT, message: 'hello' })
    expect([unnamed.status, unnamed.body.details.fields[0].path]).toEqual([400, 'sessionId'])
    // The path's session_id: the disconnect reaches the one session it names.
    const gone = await api('DELETE', `/v1/session/disconnect/${ids[1]}`)
    expect([gone.status, gone.body.sessionId, gone.body.status]).toEqual([200, ids[1], 'disconnected'])
    const listed = (await api('GET', '/v1/session/all')).body.sessions as { sessionId: string; status: string }[]
    expect(Object.fromEntries(listed.map((s) => [s.sessionId, s.status]))).toEqual({
      [ids[0]!]: 'pending',
      [ids[1]!]: 'disconnected',
    })
  }, 90_000)
  it('keeps a session’s other webhooks in its own object, and refuses workspace webhooks and Chatwoot with a 400 saying so', async () => {
    const connect = await api('POST', '/v1/session/connect', { sessionName: 'more hooks', webhookUrl: WEBHOOK_URL })
    expect(connect.status, JSON.stringify(connect.body)).toBe(200)
    const path = `/v1/session/${connect.body.sessionId}/webhooks`
    const created = await api('POST', path, { url: 'https://hooks.invalid/edge-more', description: 'CRM' })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    expect(created.body).toMatchObject({ url: 'https://hooks.invalid/edge-more', description: 'CRM', events: null })
    expect(created.body.secret).toMatch(/^whsec_/)
    const listed = await api('GET', path)
    expect(listed.body.webhooks.map((w: { webhookId: string }) => w.webhookId)).toEqual([created.body.webhookId])
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret)
    const deleted = await api('DELETE', `${path}/${created.body.webhookId}`)
    expect([deleted.status, deleted.body]).toEqual([200, { webhookId: created.body.webhookId, deleted: true }])
    expect((await api('GET', path)).body).toEqual({ webhooks: [] })

    const workspace = await api('POST', '/v1/webhooks', { url: 'https://hooks.invalid/edge-workspace' })
    expect([workspace.status, workspace.body.error]).toEqual([400, 'validation_error'])
    expect(workspace.body.message).toContain('POST /v1/session/{id}/webhooks')

    // Chatwoot needs the Node network path and a callback URL the Worker does not route.
    for (const method of ['PUT', 'GET', 'DELETE'] as const) {
      const chatwoot = await api(
        method,
        `/v1/session/${connect.body.sessionId}/chatwoot`,
        method === 'PUT' ? { url: 'https://chat.invalid', accountId: 1, apiToken: 't' } : undefined,
      )
      expect([chatwoot.status, chatwoot.body.error], method).toEqual([400, 'validation_error'])
      expect(chatwoot.body.message).toContain('Chatwoot is not available on the edge deployment')
    }
  }, 60_000)
})
