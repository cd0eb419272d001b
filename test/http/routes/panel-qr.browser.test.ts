import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serve, type RunningServer } from '../../../src/runtime/serve'
import { launchChromium, qrShownBy } from '../../support/browser'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

const PHONE = '15550009201'

/**
 * A session whose webhookEvents leave out session.qr writes no event when a new QR replaces the
 * first: the panel must still show the QR that is current, or the phone scans a dead one.
 */
describe('the web panel showing a rotating QR without session.qr events', () => {
  let t: SimulatedGateway
  let server: RunningServer
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    // A new QR every second, many in reserve.
    t = await startSimulatedGateway({ simulator: { qrRefs: 60 }, config: { qrTimeoutMs: 1_000 } })
    server = await serve({ fetch: t.gateway.app.fetch, port: 0, hostname: '127.0.0.1' })
    browser = await launchChromium()
    page = await browser.newPage()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    t?.gateway.endStreams()
    await server?.close()
    await t?.close()
  })

  it('reads the current QR again while the session pairs, and the phone links with the one shown', async () => {
    const { status, body } = await t.connect({ sessionName: 'quiet', webhookEvents: ['session.status'] })
    expect(status).toBe(200)
    await page.goto(`http://127.0.0.1:${server.port}/panel`)
    await page.locator('#api-key').fill(t.key)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.locator(`#sessions li[data-id="${body.sessionId}"]`).click()
    await page.locator('#qr').waitFor()
    const first = await qrShownBy(page)

    // With no event to say so, the page shows a newer QR than the first by itself.
    await expect.poll(() => qrShownBy(page), { timeout: 15_000, interval: 250 }).not.toBe(first)
    // The one shown is the one the gateway holds (scanned within its second, as a phone does).
    t.sim.scan(await qrShownBy(page), PHONE)
    await page.locator('#detail-status .status.connected').waitFor({ timeout: 15_000 })
  })
})
