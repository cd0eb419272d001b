import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessibilityViolations, horizontalOverflow, type PanelRig, startPanelRig } from '../../support/panel-rig'

const PHONE = '15550009401'
const CONTACT = '15551239401'

/** The Events tab: the session's events as the stream brings them, newest first, filtered, paused. */
describe('the panel’s live event monitor', () => {
  let rig: PanelRig
  let sessionId: string

  beforeAll(async () => {
    rig = await startPanelRig({ gateway: { simulator: { contacts: [CONTACT] } } })
    sessionId = (await rig.t.linkSession({ phone: PHONE, connect: { sessionName: 'monitor' } })).sessionId
    await rig.signIn()
    await rig.openSession(sessionId, 'events')
  }, 60_000)
  afterAll(() => rig?.close())

  const rows = () => rig.page.locator('#event-log li')

  it('shows a contact’s message and a status change as they happen, newest first', async () => {
    const { page, t } = rig
    await t.sim.contact(CONTACT).send({ text: 'watching the monitor' }, { to: PHONE })
    const received = page.locator('#event-log li[data-type="message.received"]', { hasText: 'watching the monitor' })
    await received.waitFor({ timeout: 15_000 })

    expect((await t.post(`/v1/session/${sessionId}/restart`, {})).status).toBe(200)
    await page.locator('#event-log li[data-type="session.status"]', { hasText: 'connected' }).first().waitFor({
      timeout: 15_000,
    })
    // Newest first: the status changes after the restart sit above the message.
    expect(await rows().first().getAttribute('data-type')).toBe('session.status')
    const types = await rows().evaluateAll((items) => items.map((item) => item.getAttribute('data-type')))
    expect(types.indexOf('session.status')).toBeLessThan(types.indexOf('message.received'))

    // Each event's JSON opens from its summary.
    await received.locator('summary').click()
    const json = JSON.parse((await received.locator('pre').textContent()) ?? '')
    expect(json).toMatchObject({
      type: 'message.received',
      sessionId,
      data: { content: { text: 'watching the monitor' } },
    })
    await rig.shot('events')
  })

  it('filters by type and by text', async () => {
    const { page } = rig
    const total = await rows().count()
    await page.locator('#events-type').selectOption('message.received')
    await expect.poll(() => rows().count()).toBe(1)
    expect(await rows().first().getAttribute('data-type')).toBe('message.received')

    await page.locator('#events-type').selectOption('')
    await page.locator('#events-text').fill('WATCHING the')
    await expect.poll(() => rows().count()).toBe(1)
    await page.locator('#events-text').fill('nothing says this')
    await expect.poll(() => rows().count()).toBe(0)
    expect(await page.locator('#events').textContent()).toContain('No event matches the filter.')
    await page.locator('#events-text').fill('')
    await expect.poll(() => rows().count()).toBe(total)
  })

  it('holds the list while paused and shows what came meanwhile on resume', async () => {
    const { page, t } = rig
    await page.locator('#events-pause').click()
    expect(await page.locator('#events-pause').getAttribute('aria-pressed')).toBe('true')
    await t.sim.contact(CONTACT).send({ text: 'sent during the pause' }, { to: PHONE })
    await expect
      .poll(() => page.locator('#events-status').textContent(), { timeout: 15_000 })
      .toBe('Paused: 1 new since.')
    expect(await page.locator('#event-log').textContent()).not.toContain('sent during the pause')
    await page.locator('#events-pause').click()
    await page.locator('#event-log li', { hasText: 'sent during the pause' }).waitFor()
  })

  it('no overflow at 1280 and 390 px and no serious accessibility finding, in both themes', async () => {
    const { page } = rig
    await page.locator('#event-log li summary').first().click() // one event open: long JSON must wrap
    for (const theme of ['light', 'dark'] as const) {
      await rig.chooseTheme(theme)
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
