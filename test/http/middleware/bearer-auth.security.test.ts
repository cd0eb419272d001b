import { sign } from 'hono/jwt'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sha256Hex } from '../../../src/crypto'
import { revokeApiKey, createApiKey } from '../../../src/services/api-keys'
import { startTestGateway, type TestGateway } from '../../support/gateway'
import { queryFile } from '../../support/sqlite-file'

const JWT_SECRET = 'a-jwt-secret-of-at-least-32-characters!!'
const DEPLOYMENT_KEY = 'deployment-key-0123456789'
const now = () => Math.floor(Date.now() / 1000)

/** A bearer failure asks for a bearer credential; a deployment-key failure (x-api-key) must not. */
async function expectUnauthorized(response: Response, message: RegExp, challenge: string | null = 'Bearer') {
  expect(response.status).toBe(401)
  expect(response.headers.get('www-authenticate')).toBe(challenge)
  const body = await response.json()
  expect(body).toEqual({ error: 'unauthorized', message: expect.stringMatching(message), details: {} })
}

describe('bearer authentication', () => {
  let t: TestGateway
  beforeAll(async () => {
    t = await startTestGateway({ config: { jwtSecret: JWT_SECRET } })
  })
  afterAll(() => t.close())

  const get = (authorization?: string) =>
    t.gateway.app.request('/v1/workspace', { headers: authorization ? { authorization } : {} })

  it('rejects a request without Authorization', async () => {
    await expectUnauthorized(await get(), /Missing Authorization/)
  })

  it('rejects another scheme', async () => {
    await expectUnauthorized(await get(`Basic ${Buffer.from('a:b').toString('base64')}`), /Bearer scheme/)
  })

  it('rejects an unknown key', async () => {
    await expectUnauthorized(await get('Bearer wag_thisisnotakeythisisnotakey'), /Invalid or revoked API key/)
  })

  it('accepts a valid key and scopes the request to its workspace', async () => {
    const response = await get(`Bearer ${t.key}`)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ name: 'test', plan: 'free', limits: { dailyContactChecks: 20 } })
  })

  it('rejects a revoked key', async () => {
    const issued = createApiKey(t.gateway.context, { workspace: 'test' })
    expect((await get(`Bearer ${issued.key}`)).status).toBe(200)
    revokeApiKey(t.gateway.context, { id: issued.id })
    await expectUnauthorized(await get(`Bearer ${issued.key}`), /Invalid or revoked/)
  })

  it('stores only the SHA-256 of a key, computed by the shared helper', async () => {
    const issued = createApiKey(t.gateway.context, { workspace: 'test' })
    const rows = queryFile<{ hash: string }>(t.databasePath, 'SELECT hash FROM api_keys WHERE id = ?', issued.id)
    expect(rows).toEqual([{ hash: sha256Hex(issued.key) }])
    expect(JSON.stringify(queryFile(t.databasePath, 'SELECT * FROM api_keys'))).not.toContain(issued.key)
  })

  it('accepts a valid JWT naming the workspace and plan', async () => {
    const token = await sign({ workspace: 'jwt-team', plan: 'paid', exp: now() + 60 }, JWT_SECRET, 'HS256')
    const response = await get(`Bearer ${token}`)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      name: 'jwt-team',
      plan: 'paid',
      limits: { dailyContactChecks: 5000 },
    })
  })

  it('rejects an expired JWT', async () => {
    const token = await sign({ workspace: 'jwt-team', exp: now() - 10 }, JWT_SECRET, 'HS256')
    await expectUnauthorized(await get(`Bearer ${token}`), /Token expired/)
  })

  it('rejects a JWT without exp, saying it needs one', async () => {
    const token = await sign({ workspace: 'jwt-team' }, JWT_SECRET, 'HS256')
    await expectUnauthorized(await get(`Bearer ${token}`), /needs an exp claim/)
  })

  it('rejects a JWT before its nbf, and accepts it once nbf has passed', async () => {
    const early = await sign({ workspace: 'jwt-team', nbf: now() + 60, exp: now() + 120 }, JWT_SECRET, 'HS256')
    await expectUnauthorized(await get(`Bearer ${early}`), /not valid before/)
    const ready = await sign({ workspace: 'jwt-team', nbf: now() - 1, exp: now() + 120 }, JWT_SECRET, 'HS256')
    expect((await get(`Bearer ${ready}`)).status).toBe(200)
  })

  it('rejects a JWT signed with another secret', async () => {
    const token = await sign({ workspace: 'jwt-team', exp: now() + 60 }, 'x'.repeat(40), 'HS256')
    await expectUnauthorized(await get(`Bearer ${token}`), /Invalid or expired token/)
  })

  it('rejects a JWT without a workspace claim', async () => {
    const token = await sign({ sub: 'someone', exp: now() + 60 }, JWT_SECRET, 'HS256')
    await expectUnauthorized(await get(`Bearer ${token}`), /name a workspace/)
  })
})

describe('deployment key', () => {
  let t: TestGateway
  beforeAll(async () => {
    t = await startTestGateway({ config: { deploymentApiKey: DEPLOYMENT_KEY } })
  })
  afterAll(() => t.close())

  it('rejects a request without x-api-key even with a valid bearer key', async () => {
    await expectUnauthorized(await t.request('/v1/workspace'), /Missing x-api-key/, null)
  })

  it('rejects a wrong x-api-key', async () => {
    await expectUnauthorized(
      await t.request('/v1/workspace', { headers: { 'x-api-key': 'wrong' } }),
      /Invalid x-api-key/,
      null,
    )
  })

  it('accepts the right x-api-key with a valid bearer key', async () => {
    const response = await t.request('/v1/workspace', { headers: { 'x-api-key': DEPLOYMENT_KEY } })
    expect(response.status).toBe(200)
  })

  it('still needs the bearer credential', async () => {
    const response = await t.gateway.app.request('/v1/workspace', { headers: { 'x-api-key': DEPLOYMENT_KEY } })
    await expectUnauthorized(response, /Missing Authorization/)
  })

  it('guards the API description too, but not the health probes', async () => {
    expect((await t.gateway.app.request('/openapi.json')).status).toBe(401)
    expect((await t.gateway.app.request('/health')).status).toBe(200)
    expect((await t.gateway.app.request('/ready')).status).toBe(200)
  })
})
