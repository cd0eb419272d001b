import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { generate, testPicture } from '../../support/media-fixtures'
import { accessibilityViolations, horizontalOverflow, type PanelRig, startPanelRig } from '../../support/panel-rig'

const ACCOUNT = '15550009501'
const SHOP = '15551230501'
const NOBODY = '15551239599'

/**
 * The Contacts tab in Chromium against the gateway and the simulator as WhatsApp: a business's
 * profile (its photo on WhatsApp's media host never loaded), whether a number is on WhatsApp (the
 * quota said beside the button), and a block then an unblock, each seen in the API's block list.
 */
describe('the panel’s Contacts tab', () => {
  let rig: PanelRig
  let sessionId: string

  const blockedList = async () => (await rig.t.get(`/v1/contact/blocked?sessionId=${sessionId}`)).body.blocked
  const lookUp = async (phone: string, button: '#contact-show' | '#contact-check') => {
    await rig.page.locator('#contact-phone').fill(phone)
    await rig.page.locator(button).click()
  }

  beforeAll(async () => {
    // Two checks a day, so the third meets the quota
    const plans = {
      free: { interactiveMessages: false, messageWebhooks: true, dailyContactChecks: 20, maxSessions: 3 },
      paid: { interactiveMessages: true, messageWebhooks: true, dailyContactChecks: 2, maxSessions: 100 },
    }
    rig = await startPanelRig({ gateway: { config: { plans } } })
    rig.t.sim.addContact(SHOP)
    rig.t.sim.setProfile(SHOP, {
      name: 'Bike Shop',
      about: 'Open every day',
      picture: Buffer.from(await generate([...testPicture('640x640', 1), '-frames:v', '1'], 'jpg')),
      business: {
        description: 'Bicycles and repairs',
        category: 'Bicycle Shop',
        email: 'shop@example.com',
        website: 'https://shop.example.com',
        address: '1 Main St',
        hours: { timezone: 'Europe/Berlin', days: [{ day: 'sat', mode: 'open_24h' }] },
      },
    })
    sessionId = (await rig.t.linkSession({ phone: ACCOUNT, connect: { sessionName: 'shop desk' } })).sessionId
    // WhatsApp tells a push name only with a message: the shop writes once.
    const hello = await rig.t.sim.contact(SHOP).send({ text: 'hello' }, { to: ACCOUNT })
    await rig.t.waitForRecord(sessionId, hello, (record) => record?.status === 'received')
    rig.page.setDefaultTimeout(10_000) // a missing element fails its test, not the file's time
    await rig.signIn()
    await rig.openSession(sessionId, 'contacts')
  }, 60_000)
  afterEach(() => {
    expect(rig.consoleErrors).toEqual([])
    // The photo's URL points at the simulator's media host: nothing but the gateway was asked.
    expect(rig.offOrigin).toEqual([])
  })
  afterAll(() => rig?.close())

  it('shows a business’s profile without loading its photo from WhatsApp’s servers', async () => {
    const { page } = rig
    await page.locator('#contact-blocked-list').getByText('Nobody is blocked.').waitFor()
    await lookUp(`+1 555 123 0501`, '#contact-show')
    await page.locator('#contact-profile').waitFor()
    expect(await page.locator('#contact-name').innerText()).toBe('Bike Shop')
    expect(await page.locator('#contact-about').innerText()).toMatch(/^Open every day \(since .+\)$/)
    expect(await page.locator('#contact-number').innerText()).toBe(`+${SHOP}`)
    expect(await page.locator('#contact-lid').innerText()).toBe(`${rig.t.sim.contact(SHOP).lid}@lid`)
    expect(await page.locator('#contact-photo').innerText()).toContain('Not shown here')
    expect(await page.locator('#contact-kind').innerText()).toBe('business account')
    expect(await page.locator('#contact-profile [data-field="category"]').innerText()).toBe('Bicycle Shop')
    expect(await page.locator('#contact-profile [data-field="website"]').innerText()).toBe('https://shop.example.com')
    expect(await page.locator('#contact-profile [data-field="hours"] li').allInnerTexts()).toEqual([
      'Sat open 24 hours',
    ])
    expect(await page.locator('#contact-blocked').innerText()).toBe('no')
    expect(await page.locator('img').count()).toBe(0)
  })

  it('says whether a number is on WhatsApp, that checking counts against the plan’s daily quota, and when it is used up', async () => {
    const { page } = rig
    await page.locator('#contact-check-hint', { hasText: 'daily contact-check quota (2 numbers a UTC day' }).waitFor()
    expect(await page.locator('#contact-check').getAttribute('aria-describedby')).toBe('contact-check-hint')
    await lookUp(SHOP, '#contact-check')
    await page.locator('#contact-status', { hasText: `${SHOP} is on WhatsApp.` }).waitFor()
    await lookUp(NOBODY, '#contact-check')
    await page.locator('#contact-status', { hasText: `${NOBODY} is not on WhatsApp.` }).waitFor()
    // The third check of the day: the API's 429 names what remains, and no stale answer stays
    await lookUp(SHOP, '#contact-check')
    await page.locator('#contact-error', { hasText: 'Daily contact check limit reached: 0 checks remain' }).waitFor()
    expect(await page.locator('#contact-status').innerText()).toBe('')
    // A profile of someone without an account: the API's own 404 message, announced
    await lookUp(NOBODY, '#contact-show')
    await page.locator('#contact-error').filter({ hasText: /\S/ }).waitFor()
    expect(await page.locator('#contact-profile').count()).toBe(0)
  })

  it('blocks after a confirmation, shows it in the list, and unblocks from the list', async () => {
    const { page } = rig
    await lookUp(SHOP, '#contact-show')
    await page.locator('#contact-block').waitFor()
    const dialogs: string[] = []
    const collect = (dialog: { message(): string }) => void dialogs.push(dialog.message())
    page.on('dialog', collect)
    await page.locator('#contact-block').click()
    await page.locator(`#blocked tr[data-phone="${SHOP}"]`).waitFor()
    const shop = { phone: SHOP, lid: `${rig.t.sim.contact(SHOP).lid}@lid` }
    expect(await blockedList()).toEqual([shop])
    expect(await page.locator('#block-status').innerText()).toBe(`+${SHOP} is blocked.`)
    expect(await page.locator('#contact-blocked').innerText()).toBe('yes')
    await page.locator('#contact-unblock').waitFor()

    await page.getByRole('button', { name: `Unblock +${SHOP}` }).click()
    await page.locator('#contact-blocked-list').getByText('Nobody is blocked.').waitFor()
    expect(await blockedList()).toEqual([])
    expect(await page.locator('#contact-blocked').innerText()).toBe('no')
    await page.locator('#contact-block').waitFor()
    page.off('dialog', collect)
    expect(dialogs).toEqual([
      `Block +${SHOP}? Their messages and calls no longer reach this account.`,
      `Unblock +${SHOP}? Their new messages and calls reach this account again.`,
    ])
  })

  it('fits 1280 and 390 px and has no serious accessibility finding, in both themes', async () => {
    const { page } = rig
    await lookUp(SHOP, '#contact-show')
    await page.locator('#contact-profile').waitFor()
    // A block shown in the list too, so the table is checked as well
    await page.locator('#contact-block').click()
    await page.locator(`#blocked tr[data-phone="${SHOP}"]`).waitFor()
    for (const theme of ['light', 'dark'] as const) {
      await rig.chooseTheme(theme)
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 844 })
        expect(await horizontalOverflow(page)).toBe(0)
        expect(await accessibilityViolations(page)).toEqual([])
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 })
    await rig.shot('contacts')
  })
})
