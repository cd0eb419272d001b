import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestGateway, type TestGateway } from './support/gateway'

describe('two gateways in one process', () => {
  let a: TestGateway
  let b: TestGateway
  beforeAll(async () => {
    a = await startTestGateway({
      config: {
        plans: {
          free: { interactiveMessages: false, messageWebhooks: true, dailyContactChecks: 7, maxSessions: 3 },
          paid: { interactiveMessages: true, messageWebhooks: true, dailyContactChecks: 9, maxSessions: 100 },
        },
      },
    })
    b = await startTestGateway()
  })
  afterAll(async () => {
    await a.close()
    await b.close()
  })

  it("accepts each gateway's key only on its own gateway", async () => {
    expect(a.databasePath).not.toBe(b.databasePath)
    expect((await a.request('/v1/workspace')).status).toBe(200)
    expect((await b.request('/v1/workspace')).status).toBe(200)
    const crossed = await a.gateway.app.request('/v1/workspace', { headers: { authorization: `Bearer ${b.key}` } })
    expect(crossed.status).toBe(401)
  })

  it('keeps configuration per gateway', async () => {
    expect(await (await a.request('/v1/workspace')).json()).toMatchObject({ limits: { dailyContactChecks: 7 } })
    expect(await (await b.request('/v1/workspace')).json()).toMatchObject({ limits: { dailyContactChecks: 20 } })
  })
})

describe('mounted inside another Hono app', () => {
  let t: TestGateway
  const parent = new Hono()
  beforeAll(async () => {
    t = await startTestGateway()
    parent.get('/', (c) => c.text('parent app'))
    parent.route('/wa', t.gateway.app)
  })
  afterAll(() => t.close())

  it('serves the gateway under the prefix and leaves the parent alone', async () => {
    expect(await (await parent.request('/')).text()).toBe('parent app')
    const response = await parent.request('/wa/v1/workspace', { headers: { authorization: `Bearer ${t.key}` } })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-request-id')).toBeTruthy()
  })

  it('answers with our Error objects under the prefix', async () => {
    const unauthorized = await parent.request('/wa/v1/workspace')
    expect(unauthorized.status).toBe(401)
    expect(await unauthorized.json()).toMatchObject({ error: 'unauthorized' })
    const unknown = await parent.request('/wa/no/such/route')
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({ error: 'not_found', message: 'No such route', details: {} })
  })

  it('serves the docs with links relative to the mount point', async () => {
    const page = await (await parent.request('/wa/docs')).text()
    expect(page).toContain('./openapi.json')
    const spec = await parent.request('/wa/openapi.json')
    expect(await spec.json()).toMatchObject({ openapi: '3.1.0', info: { version: '1.0.0' } })
    const asset = await parent.request('/wa/docs/assets/swagger-ui-bundle.js')
    expect(asset.status).toBe(200)
    expect(asset.headers.get('content-type')).toContain('javascript')
  })
})
