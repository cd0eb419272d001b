import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serve, type RunningServer } from '../../../src/runtime/serve'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import { launchChromium, qrShownBy } from '../../support/browser'
import { screenshotInBothThemes } from '../../support/panel-rig'
import {
  fastWebhooks,
  loopbackWebhooks,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver'

const PHONE = '15550009001'
const CONTACT = '15551230001'

describe('the web panel in headless Chromium', () => {
  let t: SimulatedGateway
  let server: RunningServer
  let receiver: WebhookReceiver
  let browser: Browser
  let page: Page
  let baseUrl: string
  const offOrigin: string[] = []
  const consoleErrors: string[] = []
  let hookUp = false

  const shot = (name: string) => screenshotInBothThemes(page, name)

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    receiver.respond = () => (hookUp ? 200 : 503)
    // Deliveries fail for good after ~1 s, so the log shows a failed one to retry.
    t = await startSimulatedGateway({
      plan: 'paid',
      simulator: { autoReceipts: true, contacts: [CONTACT] },
      config: { ...loopbackWebhooks, webhooks: fastWebhooks({ retryHours: 1 / 3600 }) },
    })
    server = await serve({ fetch: t.gateway.app.fetch, port: 0, hostname: '127.0.0.1' })
    baseUrl = `http://127.0.0.1:${server.port}`
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    page.on('request', (request) => {
      if (!request.url().startsWith(baseUrl) && !request.url().startsWith('data:')) offOrigin.push(request.url())
    })
    page.on('console', (message) => {
      // The refused sign-in's 401 is the browser's own resource line, not a script error.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
        consoleErrors.push(message.text())
    })
    page.on('response', (response) => {
      // GET …/chatwoot answers 404 for a session without the integration: the API's "none".
      const noChatwoot = response.request().method() === 'GET' && response.url().endsWith('/chatwoot')
      if (response.status() === 404 && !noChatwoot) consoleErrors.push(`404 ${response.url()}`)
    })
    page.on('pageerror', (error) => consoleErrors.push(error.message))
    page.on('dialog', (dialog) => void dialog.accept())
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    t?.gateway.endStreams()
    await server?.close()
    await t?.close()
    await receiver?.close()
  })

  it('is served with a strict Content-Security-Policy and no credential', async () => {
    const response = await fetch(`${baseUrl}/panel`)
    expect(response.status).toBe(200)
    const csp = response.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("default-src 'none'")
    expect(csp).not.toContain('unsafe-inline')
    expect(response.headers.get('x-frame-options')).toBe('DENY')
  })

  it('signs in with an API key kept in sessionStorage, never in the URL or a cookie', async () => {
    await page.goto(`${baseUrl}/panel`)
    await page.locator('#api-key').fill('wag_not-a-key')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect.poll(() => page.locator('#sign-in-error').textContent()).toMatch(/\S/)
    await shot('sign-in')

    await page.locator('#api-key').fill(t.key)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.locator('#sessions').waitFor()
    expect(await page.locator('#who').textContent()).toContain('test · paid')
    expect(page.url()).toBe(`${baseUrl}/panel`)
    expect(await page.context().cookies()).toEqual([])
    expect(await page.evaluate('sessionStorage.length')).toBe(1)
  })

  it('connects by QR: the simulator scans the image the page shows and the page turns connected by itself', async () => {
    await page.locator('#new-name').fill('support')
    await page.locator('#new-webhook').fill(receiver.url('panel'))
    await page.locator('#connect').click()
    await page.locator('#qr').waitFor()
    expect(await page.locator('#pairing').textContent()).not.toContain('null')
    await shot('qr')
    t.sim.scan(await qrShownBy(page), PHONE)
    await page.locator('#detail-status .status.connected').waitFor({ timeout: 15_000 })
    await page.locator('#sessions li .status.connected').waitFor()
    expect(await page.locator('#detail-info').textContent()).toContain(PHONE)
  })

  it('sends a text and shows it reach delivered, and shows what a contact sends as it arrives', async () => {
    await page.locator('#send-phone').fill(`+${CONTACT}`)
    await page.locator('#send-text').fill('hello from the panel')
    await page.locator('#send').click()
    const sent = page.locator('#messages tr[data-direction="outbound"]', { hasText: 'hello from the panel' })
    await sent.locator('.status.delivered, .status.read').waitFor({ timeout: 15_000 })

    const sessionId = (await t.listSessions())[0]!.sessionId
    await t.sim.contact(CONTACT).send({ text: 'hi, a question about my order' }, { to: PHONE })
    const inbound = page.locator('#messages tr[data-direction="inbound"]', { hasText: 'a question about my order' })
    await inbound.locator('.status.received').waitFor({ timeout: 15_000 })
    await shot('session')
    expect(sessionId).toMatch(/^ses_/)
  })

  it('retries a failed webhook delivery from the log', async () => {
    await page.locator('#tab-webhooks').click()
    await page.locator('#deliveries .status.failed').first().waitFor({ timeout: 15_000 })
    hookUp = true
    const failed = page.locator('#deliveries tr', { has: page.locator('.status.failed') }).first()
    const id = await failed.getAttribute('data-id')
    await failed.locator('button.retry').click()
    await page.locator(`#deliveries tr[data-id="${id}"] .status.delivered`).waitFor({ timeout: 15_000 })
    await shot('deliveries')
  })

  it('saves the event types the webhook gets (ticked boxes), and every type again when none is ticked', async () => {
    await page.locator('#tab-overview').click()
    const filterOf = async () => (await t.listSessions())[0]?.webhookEvents
    const box = (type: string) => page.locator(`#webhook-events input[value="${type}"]`)
    await box('session.status').check()
    await box('message.received').check()
    await page.locator('#save-settings').click()
    await expect.poll(filterOf).toEqual(['session.status', 'message.received'])
    await expect.poll(() => page.locator('#settings-status').textContent()).toBe('Saved.')
    // What the page shows after saving is what the gateway answered.
    expect(await box('message.received').isChecked()).toBe(true)
    expect(await box('message.status').isChecked()).toBe(false)
    await box('session.status').uncheck()
    await box('message.received').uncheck()
    await page.locator('#save-settings').click()
    await expect.poll(filterOf).toBeNull()
  })

  it('adds another webhook, whose secret it shows once and which gets the session’s events, and removes it', async () => {
    await page.locator('#tab-webhooks').click()
    await page.locator('#new-webhook-url').fill(receiver.url('second'))
    await page.locator('#new-webhook-events input[value="message.received"]').check()
    await page.locator('#new-webhook-description').fill('CRM')
    await page.locator('#add-webhook').click()
    await expect.poll(() => page.locator('#new-webhook-secret').textContent()).toMatch(/\(shown once\): whsec_/)
    const secret = (await page.locator('#new-webhook-secret').textContent())!.replace(/^.*: /, '')
    const added = page.locator('#webhooks li', { hasText: receiver.url('second') })
    await added.waitFor()
    expect(await added.textContent()).toContain('CRM · message.received')
    await shot('webhooks')

    // It is a webhook of the session's for real: a contact's message reaches it, signed with its secret
    await t.sim.contact(CONTACT).send({ text: 'for the CRM too' }, { to: PHONE })
    const events = await receiver.waitFor('second', secret, (got) =>
      got.some((e) => e.data.content?.text === 'for the CRM too'),
    )
    expect(events.map((e) => e.type)).toEqual(['message.received'])

    await added.locator('button.remove-webhook').click() // the dialog is accepted by the handler set in beforeAll
    await expect.poll(() => page.locator('#webhooks li[data-id]').count()).toBe(0)
    const sessionId = (await t.listSessions())[0]!.sessionId
    expect((await t.get(`/v1/session/${sessionId}/webhooks`)).body).toEqual({ webhooks: [] })
  })

  it('rotates the webhook secret, restarts, and disconnects after a confirmation', async () => {
    await page.locator('#tab-overview').click()
    await page.locator('#rotate-secret').click()
    await expect.poll(() => page.locator('#secret').textContent()).toMatch(/^New webhook secret \(shown once\): whsec_/)
    const logins = t.sim.account(PHONE).stats().logins
    await page.locator('#restart').click()
    await expect.poll(() => t.sim.account(PHONE).stats().logins, { timeout: 15_000 }).toBe(logins + 1)
    await page.locator('#detail-status .status.connected').waitFor({ timeout: 15_000 })
    await page.locator('#disconnect').click() // the dialog is accepted by the handler set in beforeAll
    await page.locator('#detail-status .status.disconnected').waitFor({ timeout: 15_000 })
    expect(t.sim.account(PHONE).linked).toBe(false)
  })

  it('asked nothing of any other origin and logged no script error', () => {
    expect(offOrigin).toEqual([])
    expect(consoleErrors).toEqual([])
  })
})
