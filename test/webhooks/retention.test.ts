import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryFile } from '../support/sqlite-file'
import { startSimulatedGateway, type SimulatedGateway } from '../support/simulated-gateway'
import { fastWebhooks, loopbackWebhooks, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver'
import { pollUntil } from '../support/poll'

const count = (path: string, sql: string) => queryFile<{ n: number }>(path, sql)[0]!.n

/** The retry window ends in `failed`; delivered and failed deliveries are pruned after the retention. */
describe('webhook retries run out, and the outbox stays bounded', () => {
  let t: SimulatedGateway
  let receiver: WebhookReceiver

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    // A retry window of ~1.5 s and a retention of ~1 s: hours in production, seconds here.
    t = await startSimulatedGateway({
      config: { ...loopbackWebhooks, webhooks: fastWebhooks({ retryHours: 1.5 / 3600, retentionHours: 1 / 3600 }) },
    })
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await receiver.close()
  })

  it('marks a delivery failed once its retry window has passed, after several attempts', async () => {
    receiver.respond = (r) => (r.path === '/down' ? 503 : 200)
    const { body } = await t.connect({ sessionName: 'down', webhookUrl: receiver.url('down') })
    const log = await pollUntil(
      async () =>
        (await t.get(`/v1/webhooks/deliveries?sessionId=${body.sessionId}&status=failed`)).body.deliveries as any[],
      (deliveries) => deliveries.length > 0,
      { timeoutMs: 10_000, intervalMs: 100, what: 'a failed delivery' },
    )
    expect(log[0]).toMatchObject({ status: 'failed', lastStatusCode: 503, nextAttemptAt: null })
    expect(log[0].attempts).toBeGreaterThan(2)
  })

  it('prunes delivered and failed deliveries past the retention when the gateway starts', async () => {
    receiver.respond = () => 200
    const { body } = await t.connect({ sessionName: 'up', webhookUrl: receiver.url('up') })
    await receiver.waitFor('up', body.webhookSecret, (events) => events.length > 0)
    const before = count(
      t.databasePath,
      "SELECT count(*) AS n FROM webhook_deliveries WHERE status IN ('delivered', 'failed')",
    )
    expect(before).toBeGreaterThan(0)
    await sleep(1_200) // past the retention
    await t.gateway.stop()
    await t.gateway.start()
    expect(
      count(t.databasePath, "SELECT count(*) AS n FROM webhook_deliveries WHERE status IN ('delivered', 'failed')"),
    ).toBeLessThan(before)
    expect(
      count(
        t.databasePath,
        "SELECT count(*) AS n FROM webhook_deliveries WHERE status IN ('delivered', 'failed') AND updated_at < strftime('%s','now') * 1000 - 1000",
      ),
    ).toBe(0)
  })
})
