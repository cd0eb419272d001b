import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { serve, type RunningServer } from '../../../src/runtime/serve'
import { launchChromium } from '../../support/browser'
import { screenshotInBothThemes } from '../../support/panel-rig'
import { startChatwootStandIn, type ChatwootStandIn } from '../../support/chatwoot/stand-in'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import { fastWebhooks, loopbackWebhooks } from '../../support/webhook-receiver'

const PHONE = '15550009201'
const CONTACT = '15551230201'

/**
 * The session page's Chatwoot section in headless Chromium, against the gateway served over
 * loopback and the Chatwoot stand-in (every request it gets checked against Chatwoot's OpenAPI):
 * turned on with a refused token, then the right one, changed, shown failing live, turned off.
 */
describe('the web panel’s Chatwoot section', () => {
  let t: SimulatedGateway
  let cw: ChatwootStandIn
  let server: RunningServer
  let browser: Browser
  let page: Page
  let sessionId: string
  const offOrigin: string[] = []
  const consoleErrors: string[] = []

  const section = () => page.locator('#chatwoot')
  const field = (label: string) => section().getByLabel(label, { exact: true })
  const current = () => page.locator('#chatwoot-current')
  const integration = () => t.get(`/v1/session/${sessionId}/chatwoot`)

  beforeAll(async () => {
    cw = await startChatwootStandIn()
    // Served before the gateway exists so that PUBLIC_URL (the inbox's callback) is this server.
    server = await serve({ fetch: (request) => t.gateway.app.fetch(request), port: 0, hostname: '127.0.0.1' })
    const baseUrl = `http://127.0.0.1:${server.port}`
    t = await startSimulatedGateway({
      plan: 'paid',
      simulator: { contacts: [CONTACT] },
      config: { ...loopbackWebhooks, webhooks: fastWebhooks(), publicUrl: baseUrl },
    })
    sessionId = (await t.linkSession({ phone: PHONE, connect: { sessionName: 'support' } })).sessionId
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    page.on('request', (request) => {
      if (!request.url().startsWith(baseUrl) && !request.url().startsWith('data:')) offOrigin.push(request.url())
    })
    page.on('console', (message) => {
      // The 404 of a session without Chatwoot (and the refused PUT) are the browser's own resource lines.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
        consoleErrors.push(message.text())
    })
    page.on('pageerror', (error) => consoleErrors.push(error.message))
    page.on('dialog', (dialog) => void dialog.accept())

    await page.goto(`${baseUrl}/panel`)
    await page.locator('#api-key').fill(t.key)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.locator(`#sessions li[data-id="${sessionId}"]`).click()
    await page.locator('#tab-chatwoot').click()
  }, 60_000)

  afterEach(() => {
    cw.down = false
    expect(cw.violations).toEqual([])
    expect(offOrigin).toEqual([])
    expect(consoleErrors).toEqual([])
  })

  afterAll(async () => {
    await browser?.close()
    t?.gateway.endStreams()
    await server?.close()
    await t?.close()
    await cw?.close()
  })

  it('says the session has none, and offers a labelled form with the defaults', async () => {
    await expect.poll(() => current().textContent()).toMatch(/not connected to Chatwoot/i)
    expect(await field('Inbox name').inputValue()).toBe('support')
    expect(await field('API token').getAttribute('type')).toBe('password')
    expect(await field('Sign replies with the agent’s name').isChecked()).toBe(true)
    expect(await field('Reopen resolved conversations').isChecked()).toBe(true)
    expect(await field('Start new conversations as pending').isChecked()).toBe(false)
    expect(await field('Leave groups out').isChecked()).toBe(false)
    expect(await section().locator('#chatwoot-off').count()).toBe(0)
    // Every control has a label; status and errors are announced.
    const unlabelled = await section()
      .locator('input')
      .evaluateAll((inputs) => inputs.filter((input) => !input.closest('label')).length)
    expect(unlabelled).toBe(0)
    expect(await page.locator('#chatwoot-error').getAttribute('role')).toBe('alert')
    expect(await page.locator('#chatwoot-status').getAttribute('role')).toBe('status')
  })

  it('shows Chatwoot’s refusal of a token, keeps what was typed, and saves nothing', async () => {
    await field('Chatwoot URL').fill(cw.url)
    await field('Account id').fill(String(cw.accountId))
    await field('API token').fill('not-the-token')
    await field('API token').press('Enter') // submitted from the keyboard
    await expect.poll(() => page.locator('#chatwoot-error').textContent()).toMatch(/refused the apiToken/)
    expect(await field('Chatwoot URL').inputValue()).toBe(cw.url)
    expect(await field('Account id').inputValue()).toBe(String(cw.accountId))
    expect(await field('API token').inputValue()).toBe('not-the-token')
    expect(await current().textContent()).toMatch(/not connected to Chatwoot/i)
    expect((await integration()).status).toBe(404)
    expect(cw.inboxes).toEqual([])

    // The right token while Chatwoot is down (502): shown the same way, nothing saved either.
    cw.down = true
    await field('API token').fill(cw.token)
    const answered = page.waitForResponse((r) => r.url().endsWith('/chatwoot') && r.request().method() === 'PUT')
    await section().getByRole('button', { name: 'Turn on' }).click()
    expect((await answered).status()).toBe(502)
    await expect.poll(() => page.locator('#chatwoot-error').textContent()).toMatch(/Chatwoot could not be used/)
    expect(await field('API token').inputValue()).toBe(cw.token)
    expect((await integration()).status).toBe(404)
  })

  it('turns it on with the right token: the inbox and the masked token shown, the inbox made in Chatwoot', async () => {
    await field('API token').fill(cw.token)
    await section().getByRole('button', { name: 'Turn on' }).click()
    await expect.poll(() => current().textContent()).toContain('support')
    const masked = `••••••••${cw.token.slice(-4)}`
    expect(await page.locator('#chatwoot-token-shown').textContent()).toBe(masked)
    expect(await current().textContent()).toContain(cw.url)
    await current().locator('.status.ok').waitFor()
    expect(await page.locator('#chatwoot-error').textContent()).toBe('')
    expect(await page.locator('#chatwoot-status').textContent()).toMatch(/on/i)
    await screenshotInBothThemes(page, 'chatwoot')
    // The token is not kept in the page once saved.
    expect(await field('API token').inputValue()).toBe('')
    expect(await page.locator('body').textContent()).not.toContain(cw.token)

    expect(cw.inboxes).toHaveLength(1)
    expect(cw.inboxes[0]).toMatchObject({ name: 'support' })
    expect((await integration()).body).toMatchObject({
      url: cw.url,
      accountId: cw.accountId,
      inboxName: 'support',
      inboxId: cw.inboxes[0]!.id,
      apiToken: masked,
      signAgentName: true,
      reopenResolved: true,
      startPending: false,
      ignoreGroups: false,
    })
  })

  it('changes the options (the token field left blank keeps the saved one), the form keeping the saved values', async () => {
    expect(await field('Chatwoot URL').inputValue()).toBe(cw.url)
    await field('Start new conversations as pending').check()
    await field('Sign replies with the agent’s name').uncheck()
    expect(await field('API token').inputValue()).toBe('')
    // The section is read again every few seconds (a delivery turns its state; no event says so); what was typed stays.
    await page.waitForResponse((r) => r.url().endsWith('/chatwoot') && r.request().method() === 'GET')
    expect(await field('Start new conversations as pending').isChecked()).toBe(true)
    expect(await field('Sign replies with the agent’s name').isChecked()).toBe(false)
    await section().getByRole('button', { name: 'Save' }).click()
    await expect.poll(() => current().locator('[data-option="startPending"]').textContent()).toMatch(/yes/)
    expect(await current().locator('[data-option="signAgentName"]').textContent()).toMatch(/no/)
    expect((await integration()).body).toMatchObject({ startPending: true, signAgentName: false, reopenResolved: true })
    expect(cw.inboxes).toHaveLength(1) // the same inbox, found by name
    expect(await field('Start new conversations as pending').isChecked()).toBe(true)
    // The saved token still works: Chatwoot answered the PUT with it.
    expect(cw.requests.at(-1)).toMatchObject({ method: 'GET', path: `/api/v1/accounts/${cw.accountId}/inboxes` })
  })

  it('shows the state turn error while Chatwoot is down, with the error and when, and ok again once it is back', async () => {
    cw.down = true
    await t.sim.contact(CONTACT).send({ text: 'is anybody there?' }, { to: PHONE })
    await current().locator('.status.error').waitFor({ timeout: 15_000 })
    expect(await page.locator('#chatwoot-last-error').textContent()).toMatch(/\S/)
    cw.down = false
    await current().locator('.status.ok').waitFor({ timeout: 15_000 })
    expect(await page.locator('#chatwoot-last-error').count()).toBe(0)
    expect(cw.messages.some((m) => m.content?.includes('is anybody there?'))).toBe(true)
  })

  it('turns it off after a confirmation: GET answers 404 and the section says so', async () => {
    await section().getByRole('button', { name: 'Turn off' }).click() // the dialog is accepted by the handler
    await expect.poll(() => current().textContent()).toMatch(/not connected to Chatwoot/i)
    expect((await integration()).status).toBe(404)
    expect(await section().getByRole('button', { name: 'Turn on' }).count()).toBe(1)
  })

  it('where the gateway refuses the routes (the edge deployment’s 400), says so instead of offering the form', async () => {
    const edgeRefusal =
      'Chatwoot is not available on the edge deployment; run the gateway on Node, Bun or the binary for it'
    await page.route(/\/chatwoot$/, (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'validation_error', message: edgeRefusal, details: {} }),
      }),
    )
    await page.locator(`#sessions li[data-id="${sessionId}"]`).click()
    await page.locator('#tab-chatwoot').click() // the page drawn again
    await expect.poll(() => current().textContent()).toBe(edgeRefusal)
    expect(await field('Chatwoot URL').isVisible()).toBe(false)
    expect(await section().getByRole('button', { name: 'Turn on' }).isVisible()).toBe(false)
    await page.unroute(/\/chatwoot$/)
  })
})
