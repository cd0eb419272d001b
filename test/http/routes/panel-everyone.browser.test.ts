import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessibilityViolations, horizontalOverflow, type PanelRig, startPanelRig } from '../../support/panel-rig'

const PHONE = '15550009301'

/**
 * What every screen owes everyone: no horizontal scrolling on a phone, nothing axe calls serious
 * or critical, both themes, the browser's language, keyboard use, and a banner while the gateway
 * cannot be reached.
 */
describe('the panel for everyone', () => {
  let rig: PanelRig
  let sessionId: string

  beforeAll(async () => {
    rig = await startPanelRig()
    sessionId = (await rig.t.linkSession({ phone: PHONE, connect: { sessionName: 'front desk' } })).sessionId
  }, 60_000)
  afterAll(() => rig?.close())

  it('sign-in and the session overview: no overflow at 390 px, no serious accessibility finding, in both themes', async () => {
    const { page } = rig
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 })
      await page.goto(`${rig.baseUrl}/panel`)
      await page.locator('#api-key').waitFor()
      expect(await horizontalOverflow(page)).toBe(0)
      expect(await accessibilityViolations(page)).toEqual([])
    }
    await rig.signIn()
    await rig.openSession(sessionId)
    for (const theme of ['light', 'dark']) {
      if ((await page.locator('html').getAttribute('data-theme')) !== theme) await page.locator('#theme-toggle').click()
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 844 })
        expect(await horizontalOverflow(page)).toBe(0)
        expect(await accessibilityViolations(page)).toEqual([])
      }
    }
    expect(rig.consoleErrors).toEqual([])
    expect(rig.offOrigin).toEqual([])
  })
})
