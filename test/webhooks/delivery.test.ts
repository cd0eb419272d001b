import { setTimeout as sleep } from 'node:timers/promises'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { loopbackOnlyNetwork, type NetworkGuard } from '../support/loopback-only-network'
import { startSimulatedGateway, type SimulatedGateway } from '../support/simulated-gateway'
import {
  fastWebhooks,
  loopbackWebhooks,
  startWebhookReceiver,
  type WebhookEvent,
  type WebhookReceiver,
} from '../support/webhook-receiver'

const CONTACT = '15551250001'
const calls = (events: WebhookEvent[]) => events.filter((e) => e.type === 'call.received')

/** Retries, isolation between endpoints, the delivery log, manual retry, replay and rotation. */
describe('webhook delivery', () => {
  let t: SimulatedGateway
  let receiver: WebhookReceiver
  let other: WebhookReceiver

  const pair = async (name: string, account: string, webhookUrl: string) => {
    const { sessionId, webhookSecret } = await t.linkSession({
      phone: account,
      connect: { sessionName: name, webhookUrl },
    })
    return { sessionId, secret: webhookSecret }
  }
  const deliveries = async (query: string) => (await t.get(`/v1/webhooks/deliveries?${query}`)).body

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    other = await startWebhookReceiver()
    t = await startSimulatedGateway({
      plan: 'paid',
      // A receiver's answer counts within 2 s: long enough for a busy machine (a late 200 would be
      // sent again), short enough for the slow endpoint below to exceed it.
      config: { ...loopbackWebhooks, webhooks: fastWebhooks({ timeoutMs: 2_000 }) },
    }) // paid: more sessions than the free cap
    t.sim.addContact(CONTACT)
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await receiver.close()
    await other.close()
  })

  it('retries while the receiver answers 503, then delivers each event, in order', async () => {
    let refusals = 0
    receiver.respond = (r) => (r.path === '/flaky' && refusals++ < 6 ? 503 : 200)
    const { sessionId, secret } = await pair('flaky', '15550030001', receiver.url('flaky'))
    const list = await receiver.waitFor('flaky', secret, (events) => events.some((e) => e.data.status === 'connected'))
    expect(refusals).toBeGreaterThanOrEqual(6)
    // At least once, in order: a 200 that arrives after WEBHOOK_TIMEOUT_MS (a busy machine) is
    // sent again, so an event may repeat, but only right after itself.
    const firsts = list.filter((e, i) => i === 0 || e.eventId !== list[i - 1]!.eventId)
    expect(new Set(firsts.map((e) => e.eventId)).size).toBe(firsts.length)
    expect(firsts.map((e) => e.sequence)).toEqual(firsts.map((_, i) => i + 1))
    const first = (await deliveries(`sessionId=${sessionId}`)).deliveries.at(-1)
    expect(first).toMatchObject({
      eventId: list[0]!.eventId,
      status: 'delivered',
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
    })
    expect(first.attempts).toBeGreaterThan(1)
  })

  it('keeps a slow endpoint from delaying another session', async () => {
    const slow = await pair('slow', '15550030002', receiver.url('slow'))
    const fast = await pair('fast', '15550030003', other.url('fast'))
    receiver.delayMs = (r) => (r.path === '/slow' ? 5_000 : 0) // past WEBHOOK_TIMEOUT_MS: never answered in time
    const slowCall = t.sim.contact(CONTACT).call('15550030002')
    const started = Date.now()
    const fastCall = t.sim.contact(CONTACT).call('15550030003')
    await other.waitFor('fast', fast.secret, (events) => calls(events).some((e) => e.data.callId === fastCall))
    // Well before the slow endpoint's first attempt could even time out.
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(calls(receiver.events('slow', slow.secret))).toEqual([])
    await vi.waitFor(async () => {
      const pending = await deliveries(`sessionId=${slow.sessionId}&status=pending`)
      expect(pending.deliveries[0]).toMatchObject({ type: 'call.received', lastError: 'no answer within 2000 ms' })
    }, 10_000)
    receiver.delayMs = () => 0
    await receiver.waitFor('slow', slow.secret, (events) => calls(events).some((e) => e.data.callId === slowCall))
  })

  it('re-sends on manual retry and on replay, under the same webhook-ids', async () => {
    const { sessionId, secret } = await pair('again', '15550030004', receiver.url('again'))
    const callId = t.sim.contact(CONTACT).call('15550030004')
    const before = await receiver.waitFor('again', secret, (events) => calls(events).length === 1)
    const call = calls(before)[0]!
    expect(call.data.callId).toBe(callId)

    const log = await deliveries(`sessionId=${sessionId}&status=delivered&limit=1`)
    expect(log.deliveries).toHaveLength(1)
    expect(log.deliveries[0]).toMatchObject({ eventId: call.eventId, type: 'call.received' })
    expect(log.nextCursor).toEqual(expect.any(String))
    const deliveryId = log.deliveries[0].deliveryId
    // Naming the session (as the edge needs): another session's id does not find it.
    const other = await pair('other', '15550030014', receiver.url('other'))
    expect((await t.post(`/v1/webhooks/deliveries/${deliveryId}/retry?sessionId=${other.sessionId}`, {})).status).toBe(
      404,
    )
    const retried = await t.post(`/v1/webhooks/deliveries/${deliveryId}/retry?sessionId=${sessionId}`, {})
    expect(retried.status).toBe(200)
    expect(retried.body).toMatchObject({ status: 'pending', eventId: call.eventId })
    const afterRetry = await receiver.waitFor('again', secret, (events) => calls(events).length === 2)
    expect(calls(afterRetry)[1]).toEqual(call) // same id, same body, same sequence

    const replay = await t.post('/v1/webhooks/replay', {
      sessionId,
      since: new Date(Date.now() - 60_000).toISOString(),
    })
    expect(replay.status).toBe(200)
    expect(replay.body.replayed).toBe(before.length)
    const afterReplay = await receiver.waitFor('again', secret, (events) => events.length === before.length * 2 + 1)
    expect(afterReplay.slice(-before.length)).toEqual(before)
  })

  it('replays at most `limit` events per call and says where to continue, until nextCursor is null', async () => {
    const { sessionId, secret } = await pair('paged', '15550030006', receiver.url('paged'))
    for (let i = 0; i < 3; i++) t.sim.contact(CONTACT).call('15550030006')
    const before = await receiver.waitFor('paged', secret, (events) => calls(events).length === 3)
    expect(before.length).toBeGreaterThan(4)

    const since = new Date(Date.now() - 60_000).toISOString()
    const pages: { replayed: number; nextCursor: string | null }[] = []
    let cursor: string | undefined
    do {
      const page = await t.post('/v1/webhooks/replay', { sessionId, since, limit: 2, ...(cursor ? { cursor } : {}) })
      expect(page.status).toBe(200)
      pages.push(page.body)
      cursor = page.body.nextCursor ?? undefined
    } while (cursor && pages.length < 20)
    expect(pages.slice(0, -1).every((page) => page.replayed === 2 && page.nextCursor !== null)).toBe(true)
    expect(pages.at(-1)!.nextCursor).toBeNull()
    expect(pages.reduce((n, page) => n + page.replayed, 0)).toBe(before.length)
    const again = await receiver.waitFor('paged', secret, (events) => events.length === before.length * 2)
    expect(again.slice(before.length)).toEqual(before) // each once, in order, across the pages

    const tooMany = await t.post('/v1/webhooks/replay', { sessionId, since, limit: 1001 })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.details.fields[0].path).toBe('limit')
  })

  it('answers 404 for other workspaces’ sessions and deliveries', async () => {
    const { sessionId } = await pair('mine', '15550030005', receiver.url('mine'))
    const stranger = t.addWorkspace('stranger')
    const mine = (await deliveries(`sessionId=${sessionId}`)).deliveries[0]
    expect((await t.get(`/v1/webhooks/deliveries?sessionId=${sessionId}`, stranger.key)).status).toBe(404)
    expect((await t.get('/v1/webhooks/deliveries', stranger.key)).body).toEqual({ deliveries: [], nextCursor: null })
    expect((await t.post(`/v1/webhooks/deliveries/${mine.deliveryId}/retry`, {}, { key: stranger.key })).status).toBe(
      404,
    )
    expect(
      (await t.post('/v1/webhooks/replay', { sessionId, since: '2020-01-01T00:00:00Z' }, { key: stranger.key })).status,
    ).toBe(404)
  })

  it('rotates the secret: for 24 h each delivery verifies with the old and with the new one', async () => {
    const { sessionId, secret: old } = await pair('rotating', '15550030006', receiver.url('rotating'))
    // Nothing signed with the old secret alone may still be on its way once the rotation is made.
    await receiver.waitFor('rotating', old, (events) =>
      events.some((e) => e.type === 'session.status' && e.data.status === 'connected'),
    )
    const rotatedAt = Date.now()
    const response = await t.request(`/v1/session/update/${sessionId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rotateWebhookSecret: true }),
    })
    expect(response.status).toBe(200)
    const { webhookSecret } = (await response.json()) as { webhookSecret: string }
    expect(webhookSecret).toMatch(/^whsec_/)
    expect(webhookSecret).not.toBe(old)
    const callId = t.sim.contact(CONTACT).call('15550030006')
    const list = await receiver.waitFor(
      'rotating',
      webhookSecret,
      (events) => calls(events).some((e) => e.data.callId === callId),
      { since: rotatedAt },
    )
    const request = receiver.requests.filter((r) => r.path === '/rotating').at(-1)!
    expect(request.headers['webhook-signature']!.split(' ')).toHaveLength(2)
    expect(new Webhook(old).verify(request.raw, request.headers)).toEqual(list.at(-1))
    const listed = (await t.listSessions()).find((s) => s.sessionId === sessionId)
    expect(listed).toBeDefined()
    expect(listed).not.toHaveProperty('webhookSecret')
  })

  it('refuses a signature made with another secret', () => {
    const request = receiver.requests.find((r) => r.path === '/rotating')!
    expect(() =>
      new Webhook(`whsec_${Buffer.from('not the secret at all, 24b').toString('base64')}`).verify(
        request.raw,
        request.headers,
      ),
    ).toThrow()
  })
})

describe('the address guard at delivery time', () => {
  let t: SimulatedGateway
  let receiver: WebhookReceiver
  let guard: NetworkGuard

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    guard = loopbackOnlyNetwork()
    // Private addresses are NOT allowed. DNS rebinding: the name answers a public-looking
    // address when the URL is set (only checked, never contacted) and loopback afterwards,
    // when deliveries are made.
    let lookups = 0
    t = await startSimulatedGateway({
      config: { webhookAllowHttp: true, allowPrivateAddresses: false, webhooks: fastWebhooks() },
      resolver: async () => [{ address: lookups++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }],
    })
  }, 60_000)
  afterAll(async () => {
    guard.restore()
    await t.close()
    await receiver.close()
  })

  it('refuses a URL that resolves to loopback, and the receiver hears nothing', async () => {
    const port = new URL(receiver.url()).port
    const { status, body } = await t.connect({
      sessionName: 'rebinding',
      webhookUrl: `http://hooks.invalid:${port}/hook`,
    })
    expect(status).toBe(200)
    await sleep(300)
    const log = (await t.get(`/v1/webhooks/deliveries?sessionId=${body.sessionId}`)).body.deliveries
    expect(log.at(-1)).toMatchObject({ type: 'session.status', status: 'pending', lastStatusCode: null })
    expect(log.at(-1).lastError).toMatch(/^refused: .*loopback/)
    expect(log.at(-1).attempts).toBeGreaterThan(0)
    expect(receiver.requests).toEqual([])
    expect(guard.blocked).toEqual([])
  })
})
