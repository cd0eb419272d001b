import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { qrShownBy } from '../../support/browser'
import { accessibilityViolations, horizontalOverflow, type PanelRig, startPanelRig } from '../../support/panel-rig'

const PHONE = '15550009601'
const WEBHOOK = 'https://hooks.invalid/actions'

/** A finished session's actions in the panel: link it again with its settings, or delete it. */
describe('the panel’s session actions', () => {
  let rig: PanelRig
  let sessionId: string

  beforeAll(async () => {
    rig = await startPanelRig()
    sessionId = (
      await rig.t.linkSession({
        phone: PHONE,
        connect: {
          sessionName: 'front desk',
          webhookUrl: WEBHOOK,
          webhookEvents: ['session.status', 'message.received'],
        },
      })
    ).sessionId
    await rig.signIn()
    await rig.openSession(sessionId)
  }, 60_000)
  afterAll(() => rig?.close())

  const buttons = () =>
    rig.page.locator('#detail > div > section:first-child .row button').evaluateAll((all) => all.map((b) => b.id))

  it('offers restart and disconnect to a live session, link again and delete to a disconnected one', async () => {
    const { page, t } = rig
    await page.locator('#detail-status .status.connected').waitFor()
    expect(await buttons()).toEqual(['restart', 'disconnect'])
    const response = await t.gateway.app.request(`/v1/session/disconnect/${sessionId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${t.key}` },
    })
    expect(response.status).toBe(200)
    await page.locator('#detail-status .status.disconnected').waitFor({ timeout: 15_000 })
    expect(await buttons()).toEqual(['link-again', 'delete-session'])
  })

  it('no overflow at 1280 and 390 px and no serious accessibility finding for a disconnected session, in both themes', async () => {
    const { page } = rig
    for (const theme of ['light', 'dark'] as const) {
      await rig.chooseTheme(theme)
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 844 })
        expect(await horizontalOverflow(page)).toBe(0)
        expect(await accessibilityViolations(page)).toEqual([])
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 })
  })

  it('links it again: a QR under the same id, scanned, connected, with its webhook settings kept', async () => {
    const { page, t } = rig
    await page.locator('#link-again').click()
    await page.locator('#qr').waitFor({ timeout: 15_000 })
    expect(page.url()).toContain(`#/session/${sessionId}/`)
    t.sim.scan(await qrShownBy(page), PHONE)
    await page.locator('#detail-status .status.connected').waitFor({ timeout: 15_000 })
    const [session] = await t.listSessions()
    expect(session).toMatchObject({
      sessionId,
      sessionName: 'front desk',
      status: 'connected',
      webhookUrl: WEBHOOK,
      webhookEvents: ['session.status', 'message.received'],
    })
    expect(t.sim.account(PHONE).linked).toBe(true)
  })

  it('deletes it once it is no longer live, after a confirmation, and says what went with it', async () => {
    const { page, t } = rig
    expect(await buttons()).toEqual(['restart', 'disconnect'])
    await page.locator('#disconnect').click() // the dialog is accepted by the rig
    await page.locator('#detail-status .status.disconnected').waitFor({ timeout: 15_000 })
    await page.locator('#delete-session').click()
    await expect
      .poll(() => page.locator('#deleted-notice').textContent(), { timeout: 15_000 })
      .toMatch(/^"front desk" deleted: .*\d+ events/)
    expect(page.url()).toBe(`${rig.baseUrl}/panel#/`)
    expect(await page.locator(`#sessions li[data-id="${sessionId}"]`).count()).toBe(0)
    expect(await t.listSessions()).toEqual([])
  })

  it('asked nothing of any other origin and logged no script error', () => {
    expect(rig.consoleErrors).toEqual([])
    expect(rig.offOrigin).toEqual([])
  })
})
