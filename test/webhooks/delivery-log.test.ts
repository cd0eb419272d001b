import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulatedGateway, type SimulatedGateway } from '../support/simulated-gateway'
import { fastWebhooks, loopbackWebhooks, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver'
import { pollUntil } from '../support/poll'

const CONTACT = '15551250901'

/** What the delivery log says of order and origin: which delivery a pending one waits behind, and replays. */
describe('the webhook delivery log’s waits and replays', () => {
  let t: SimulatedGateway
  let receiver: WebhookReceiver
  let up = false

  const log = async (sessionId: string) =>
    (await t.get(`/v1/webhooks/deliveries?sessionId=${sessionId}`)).body.deliveries as any[]

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    receiver.respond = () => (up ? 200 : 503)
    t = await startSimulatedGateway({
      simulator: { contacts: [CONTACT] },
      // Retries every ~200 ms for an hour: the head keeps failing, the rest stays queued behind it.
      config: { ...loopbackWebhooks, webhooks: fastWebhooks({ retryHours: 1 }) },
    })
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await receiver.close()
  })

  it('names the delivery each pending one waits behind (its stream’s oldest pending), until it goes through', async () => {
    const { sessionId } = await t.linkSession({
      phone: '15550039001',
      connect: { sessionName: 'queued', webhookUrl: receiver.url('queued') },
    })
    await t.sim.contact(CONTACT).send({ text: 'behind the failing one' }, { to: '15550039001' })
    const waiting = await pollUntil(
      () => log(sessionId),
      (rows) => rows.some((d) => d.type === 'message.received') && rows.find((d) => d.sequence === 1)?.attempts > 1,
      { what: 'a failing head with events behind it' },
    )
    const head = waiting.at(-1)! // newest first: the first event is last
    expect(head).toMatchObject({ sequence: 1, status: 'pending', waitingFor: null, replay: false })
    expect(head.lastError).toBe('HTTP 503')
    const behind = waiting.slice(0, -1)
    expect(behind.length).toBeGreaterThan(0)
    for (const d of behind) {
      expect(d.status).toBe('pending')
      expect(d.attempts).toBe(0)
      expect(d.waitingFor).toEqual({ deliveryId: head.deliveryId, sequence: 1 })
    }

    up = true
    const done = await pollUntil(
      () => log(sessionId),
      (rows) => rows.every((d) => d.status === 'delivered'),
      { what: 'every delivery delivered' },
    )
    expect(done.every((d) => d.waitingFor === null)).toBe(true)
  })

  it('marks the deliveries a replay queued, and keeps the mark through a retry', async () => {
    up = true
    const { sessionId } = await t.linkSession({
      phone: '15550039002',
      connect: { sessionName: 'replayed', webhookUrl: receiver.url('replayed') },
    })
    const firsts = await pollUntil(
      () => log(sessionId),
      (rows) => rows.length > 0 && rows.every((d) => d.status === 'delivered'),
      { what: 'the first deliveries' },
    )
    expect(firsts.every((d) => d.replay === false)).toBe(true)
    const replay = await t.post('/v1/webhooks/replay', {
      sessionId,
      since: new Date(Date.now() - 60_000).toISOString(),
    })
    expect(replay.body.replayed).toBe(firsts.length)
    const all = await pollUntil(
      () => log(sessionId),
      (rows) => rows.length === firsts.length * 2 && rows.every((d) => d.status === 'delivered'),
      { what: 'the replayed deliveries delivered' },
    )
    const replays = all.slice(0, firsts.length)
    expect(replays.every((d) => d.replay === true)).toBe(true)
    expect(replays.map((d) => d.eventId).sort()).toEqual(firsts.map((d) => d.eventId).sort())
    expect(all.slice(firsts.length)).toEqual(firsts)

    const retried = await t.post(`/v1/webhooks/deliveries/${replays[0].deliveryId}/retry?sessionId=${sessionId}`, {})
    expect(retried.body).toMatchObject({ status: 'pending', replay: true, waitingFor: null })
  })
})
