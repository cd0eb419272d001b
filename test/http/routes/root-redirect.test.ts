import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestGateway, type TestGateway } from '../../support/gateway'

/**
 * `GET /` sends a browser to the panel wherever the app is served: at the root, mounted in
 * another Hono app, and behind a proxy that strips a prefix. Each Location is resolved as a
 * browser does, against the URL the browser asked for, and the panel must answer there.
 */
describe('GET / redirects to the panel', () => {
  let t: TestGateway
  beforeAll(async () => {
    t = await startTestGateway({ config: { deploymentApiKey: 'a-deployment-key-of-32-characters!' } })
  })
  afterAll(() => t.close())

  /** Follows one redirect from `asked` as a browser would, through `app`. */
  async function follow(app: { request(url: string): Response | Promise<Response> }, asked: string, served = asked) {
    const response = await app.request(`http://gw.test${served}`)
    expect(response.status).toBe(302)
    const target = new URL(response.headers.get('location')!, `http://gw.test${asked}`)
    return target.pathname
  }

  it('at the root: /panel, without the deployment key a browser cannot send', async () => {
    expect(await follow(t.gateway.app, '/')).toBe('/panel')
    const panel = await t.gateway.app.request('/panel')
    expect(panel.status).toBe(200)
    expect(await panel.text()).toContain('./panel/app.js')
  })

  it('mounted at /wa in another app: /wa/panel, and the parent keeps its own /', async () => {
    const parent = new Hono().get('/', (c) => c.text('parent app')).route('/wa', t.gateway.app)
    expect(await follow(parent, '/wa')).toBe('/wa/panel')
    expect((await parent.request('/wa/panel')).status).toBe(200)
    expect(await (await parent.request('/')).text()).toBe('parent app')
  })

  it('behind a proxy serving it at /gw/ (the gateway sees /): /gw/panel', async () => {
    expect(await follow(t.gateway.app, '/gw/', '/')).toBe('/gw/panel')
  })
})
