import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessibilityViolations, horizontalOverflow, type PanelRig, startPanelRig } from '../../support/panel-rig'
import {
  fastWebhooks,
  loopbackWebhooks,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver'

const PHONE = '15550009501'
const CONTACT = '15551239501'
/** Each delivery's retry window: long enough to see the queue behind a failing one, short enough to see it fail. */
const RETRY_WINDOW_MS = 20_000

/** The delivery log through a failing local receiver: the queue's order, retry where it helps, replays. */
describe('the panel’s webhook delivery log', () => {
  let rig: PanelRig
  let receiver: WebhookReceiver
  let up = false
  let sessionId: string

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    receiver.respond = () => (up ? 200 : 503)
    rig = await startPanelRig({
      gateway: {
        simulator: { contacts: [CONTACT] },
        config: { ...loopbackWebhooks, webhooks: fastWebhooks({ retryHours: RETRY_WINDOW_MS / 3_600_000 }) },
      },
    })
    sessionId = (
      await rig.t.linkSession({ phone: PHONE, connect: { sessionName: 'log', webhookUrl: receiver.url('log') } })
    ).sessionId
    await rig.signIn()
    await rig.openSession(sessionId, 'webhooks')
  }, 60_000)
  afterAll(async () => {
    await rig?.close()
    await receiver?.close()
  })

  /** The first delivery of an event (a replay's row comes later). */
  const row = (sequence: number) => rig.page.locator(`#deliveries tr[data-sequence="${sequence}"][data-replay="false"]`)
  const sequenceOf = async (type: string) =>
    ((await rig.t.get(`/v1/webhooks/deliveries?sessionId=${sessionId}`)).body.deliveries as any[]).find(
      (d) => d.type === type,
    )?.sequence as number

  it('says which delivery the others wait behind, and offers "Retry now" only on the one being tried', async () => {
    const { t } = rig
    await t.sim.contact(CONTACT).send({ text: 'queued behind the first' }, { to: PHONE })
    await expect.poll(() => sequenceOf('message.received')).toBeGreaterThan(1)
    const queued = row(await sequenceOf('message.received'))
    await expect.poll(() => queued.locator('td.next').textContent(), { timeout: 10_000 }).toBe('waiting for #1')
    expect(await queued.locator('button.retry').count()).toBe(0)

    const head = row(1)
    await expect.poll(() => head.locator('td.text').textContent(), { timeout: 10_000 }).toBe('HTTP 503')
    expect(await head.locator('td.next').textContent()).not.toMatch(/waiting/)
    expect(await head.locator('button.retry').textContent()).toBe('Retry now')
    await rig.shot('deliveries-waiting')
  })

  it('offers "Retry" on a failed delivery, and nothing on a delivered one', async () => {
    const { page } = rig
    const failed = page.locator('#deliveries tr', { has: page.locator('.status.failed') }).first()
    await failed.waitFor({ timeout: RETRY_WINDOW_MS + 15_000 })
    expect(await failed.locator('button.retry').textContent()).toBe('Retry')
    expect(await failed.locator('button.retry').getAttribute('aria-label')).toMatch(/^Retry: \S+ #\d+$/)

    up = true
    const id = await failed.getAttribute('data-id')
    await failed.locator('button.retry').click()
    const done = page.locator(`#deliveries tr[data-id="${id}"]`)
    await done.locator('.status.delivered').waitFor({ timeout: 15_000 })
    expect(await done.locator('button.retry').count()).toBe(0)
    expect(await done.getAttribute('data-replay')).toBe('false')
  })

  it('marks the deliveries a replay queued', async () => {
    const { page } = rig
    const before = await page.locator('#deliveries tr').count()
    await page.locator('#replay').click()
    await expect
      .poll(() => page.locator('#deliveries tr[data-replay="true"]').count(), { timeout: 15_000 })
      .toBeGreaterThan(0)
    const replayed = page.locator('#deliveries tr[data-replay="true"]').first()
    expect(await replayed.locator('.tag.replay').textContent()).toBe('replayed')
    expect(await page.locator('#deliveries tr[data-replay="false"]').count()).toBe(before)
    await page.locator('#deliveries tr[data-replay="true"] .status.delivered').first().waitFor({ timeout: 15_000 })
    await rig.shot('delivery-log')
  })

  it('no overflow at 1280 and 390 px and no serious accessibility finding, in both themes', async () => {
    const { page } = rig
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
