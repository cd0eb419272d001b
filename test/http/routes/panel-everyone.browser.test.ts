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

  it('speaks the browser’s language (Brazilian Portuguese, Spanish), and the one chosen in the header from then on', async () => {
    for (const [locale, heading] of [
      ['pt-BR', 'Entrar'],
      ['es-MX', 'Iniciar sesión'],
      ['fr-FR', 'Sign in'], // not one of the panel's: English
    ] as const) {
      const context = await rig.browser.newContext({ locale })
      const page = await context.newPage()
      await page.goto(`${rig.baseUrl}/panel`)
      expect(await page.locator('h2').first().textContent()).toBe(heading)
      expect(await page.locator('html').getAttribute('lang')).toBe(
        locale === 'es-MX' ? 'es' : locale === 'pt-BR' ? 'pt-BR' : 'en',
      )
      if (locale === 'fr-FR') {
        await page.locator('#language').selectOption('es')
        expect(await page.locator('h2').first().textContent()).toBe('Iniciar sesión')
        await page.reload()
        expect(await page.locator('h2').first().textContent()).toBe('Iniciar sesión')
      }
      await context.close()
    }
  })

  it('keeps the chosen theme across a reload, and starts from the system’s', async () => {
    const context = await rig.browser.newContext({ colorScheme: 'dark' })
    const page = await context.newPage()
    await page.goto(`${rig.baseUrl}/panel`)
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    expect(await page.locator('#theme-toggle').textContent()).toBe('Light mode')
    const dark = await background()
    await page.locator('#theme-toggle').click()
    expect(await background()).not.toBe(dark)
    await page.reload()
    expect(await page.locator('html').getAttribute('data-theme')).toBe('light')
    expect(await background()).not.toBe(dark)
    await context.close()
  })

  it('is usable from the keyboard alone: sign in, reach a session, open a tab, with the focus always visible', async () => {
    const context = await rig.browser.newContext()
    const page = await context.newPage()
    await page.goto(`${rig.baseUrl}/panel`)
    const focused = () =>
      page.evaluate(() => {
        const element = document.activeElement as HTMLElement
        const style = getComputedStyle(element)
        return {
          id: element.id,
          text: element.textContent?.trim() ?? '',
          outline: style.outlineStyle,
          width: style.outlineWidth,
        }
      })
    const tabUntil = async (match: (f: Awaited<ReturnType<typeof focused>>) => boolean) => {
      for (let i = 0; i < 60; i++) {
        await page.keyboard.press('Tab')
        const now = await focused()
        if (match(now)) return now
      }
      throw new Error('never reached by Tab')
    }
    await tabUntil((f) => f.id === 'api-key')
    await page.keyboard.type(rig.t.key)
    await page.keyboard.press('Enter')
    await page.locator('#sessions').waitFor()
    const link = await tabUntil((f) => f.text.startsWith('front desk'))
    expect(link.outline).not.toBe('none')
    await page.keyboard.press('Enter')
    await page.locator('#detail-status').waitFor()
    const tab = await tabUntil((f) => f.id === 'tab-webhooks')
    expect(tab.outline).not.toBe('none')
    expect(Number.parseFloat(tab.width)).toBeGreaterThanOrEqual(2)
    await page.keyboard.press('Enter')
    await page.locator('#tab-webhooks[aria-current="page"]').waitFor()
    await page.locator('#webhooks').waitFor()
    await context.close()
  })

  it('says so while the gateway cannot be reached, and stops saying so once it answers again', async () => {
    const { page } = rig
    await page.setViewportSize({ width: 1280, height: 900 })
    await rig.openSession(sessionId)
    expect(await page.locator('#unreachable').isVisible()).toBe(false)
    await page.route(`${rig.baseUrl}/**`, (route) => route.abort('connectionrefused'))
    await page.locator('#tab-webhooks').click() // its list is read: the request fails
    await page.locator('#unreachable').waitFor({ state: 'visible' })
    expect(await page.locator('#unreachable').textContent()).toMatch(/does not answer/)
    expect(await page.locator('#unreachable').getAttribute('role')).toBe('status')
    await rig.shot('unreachable')
    await page.unroute(`${rig.baseUrl}/**`)
    await page.locator('#unreachable').waitFor({ state: 'hidden', timeout: 10_000 })
  })
})
