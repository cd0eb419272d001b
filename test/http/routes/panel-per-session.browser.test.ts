import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serve, type RunningServer } from '../../../src/runtime/serve'
import { launchChromium, qrShownBy } from '../../support/browser'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

const PHONE = '15550009101'
const CONTACT = '15551230001'

/**
 * The panel where the workspace-wide event stream is refused, as on the edge deployment (each
 * session keeps its own events there): the browser's request for it is answered with the
 * Worker's 400, and the panel must still turn connected and show receipts without a reload.
 */
describe('the web panel with one event stream per session (the edge)', () => {
  let t: SimulatedGateway
  let server: RunningServer
  let browser: Browser
  let page: Page
  const streams: string[] = []

  beforeAll(async () => {
    t = await startSimulatedGateway({ simulator: { autoReceipts: true, contacts: [CONTACT] } })
    server = await serve({ fetch: t.gateway.app.fetch, port: 0, hostname: '127.0.0.1' })
    browser = await launchChromium()
    page = await browser.newPage()
    await page.route(/\/v1\/events(\?.*)?$/, async (route) => {
      streams.push(new URL(route.request().url()).search)
      if (new URL(route.request().url()).searchParams.has('sessionId')) return route.continue()
      await route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({
          error: 'validation_error',
          message: 'On the edge deployment this request needs a sessionId (path, query or body)',
          details: {},
        }),
      })
    })
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    t?.gateway.endStreams()
    await server?.close()
    await t?.close()
  })

  it('follows the selected session’s stream: connected by itself, a send reaching delivered', async () => {
    await page.goto(`http://127.0.0.1:${server.port}/panel`)
    await page.locator('#api-key').fill(t.key)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.locator('#sessions').waitFor()
    await page.locator('#new-name').fill('edge-like')
    await page.locator('#new-webhook').fill('https://hooks.invalid/panel')
    await page.locator('#connect').click()
    await page.locator('#qr').waitFor()
    t.sim.scan(await qrShownBy(page), PHONE)
    await page.locator('#detail-status .status.connected').waitFor({ timeout: 15_000 })

    await page.locator('#send-phone').fill(CONTACT)
    await page.locator('#send-text').fill('hello, one stream per session')
    await page.locator('#send').click()
    const sent = page.locator('#messages tr[data-direction="outbound"]', { hasText: 'one stream per session' })
    await sent.locator('.status.delivered, .status.read').waitFor({ timeout: 15_000 })

    const sessionId = (await t.listSessions())[0]!.sessionId
    expect(streams[0]).toBe('')
    expect(streams).toContain(`?sessionId=${sessionId}`)
  }, 60_000)
})
