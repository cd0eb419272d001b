import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pollUntil } from '../support/poll'
import { startSimulatedGateway, type SimulatedGateway } from '../support/simulated-gateway'
import {
  fastWebhooks,
  loopbackWebhooks,
  startWebhookReceiver,
  type WebhookEvent,
  type WebhookReceiver,
} from '../support/webhook-receiver'

const CONTACT = '15551270001'
const HOUR = 3_600_000
const calls = (events: WebhookEvent[]) => events.filter((e) => e.type === 'call.received')
/** At least once, in order: a repeat may only follow itself. Answers the sequences of the first copies. */
const firstSequences = (events: WebhookEvent[]) =>
  events.filter((e, i) => i === 0 || e.eventId !== events[i - 1]!.eventId).map((e) => e.sequence)
const increasing = (numbers: number[]) => numbers.every((n, i) => i === 0 || n > numbers[i - 1]!)

/**
 * Several webhooks of one session and of its workspace, end to end: each gets the events its
 * filter wants, in order, signed with its own secret; one down for an hour holds nobody else; a
 * deleted one gets nothing more; the delivery log and replay name the webhook.
 */
describe('more than one webhook', () => {
  let t: SimulatedGateway
  let receiver: WebhookReceiver
  /** Added to the real time: the gateway's clock, moved an hour on while a webhook is down. */
  let skew = 0

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await t.request(path, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      headers: { 'content-type': 'application/json' },
    })
    return { status: response.status, body: (await response.json()) as any }
  }
  const pair = async (name: string, account: string) => {
    const { status, body } = await t.connect({ sessionName: name, webhookUrl: receiver.url(`${name}-primary`) })
    expect(status).toBe(200)
    t.sim.scan(body.qrCode, account)
    await t.waitForStatus(body.sessionId, 'connected')
    return { sessionId: body.sessionId as string, secret: body.webhookSecret as string }
  }
  const addWebhook = async (sessionId: string | null, path: string, extra: Record<string, unknown> = {}) => {
    const created = await call('POST', sessionId ? `/v1/session/${sessionId}/webhooks` : '/v1/webhooks', {
      url: receiver.url(path),
      ...extra,
    })
    expect(created.status).toBe(200)
    return { webhookId: created.body.webhookId as string, secret: created.body.secret as string }
  }

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    t = await startSimulatedGateway({
      plan: 'paid',
      clock: { now: () => new Date(Date.now() + skew) },
      config: { ...loopbackWebhooks, webhooks: fastWebhooks() },
    })
    t.sim.addContact(CONTACT)
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await receiver.close()
  })

  it('delivers each event to every webhook that wants it, in order, each signed with its own secret', async () => {
    const workspaceHook = await addWebhook(null, 'workspace')
    const session = await pair('fan', '15550050001')
    const all = await addWebhook(session.sessionId, 'fan-all')
    const onlyCalls = await addWebhook(session.sessionId, 'fan-calls', { events: ['call.received'] })
    const callIds = [1, 2, 3, 4, 5].map(() => t.sim.contact(CONTACT).call('15550050001'))
    const wantAll = (events: WebhookEvent[]) => callIds.every((id) => calls(events).some((e) => e.data.callId === id))
    // Each receiver verifies with its own secret only (a wrong one throws).
    const primary = await receiver.waitFor('fan-primary', session.secret, wantAll)
    const extra = await receiver.waitFor('fan-all', all.secret, wantAll)
    const filtered = await receiver.waitFor('fan-calls', onlyCalls.secret, wantAll)
    const workspace = await receiver.waitFor('workspace', workspaceHook.secret, wantAll)
    expect(() => receiver.events('fan-all', session.secret)).toThrow()

    expect(filtered.every((e) => e.type === 'call.received')).toBe(true)
    for (const events of [primary, extra, filtered, workspace]) expect(increasing(firstSequences(events))).toBe(true)
    // The same event (same webhook-id, body and sequence) to each: one event, several deliveries.
    const primaryCalls = calls(primary).map((e) => [e.eventId, e.sequence])
    expect(calls(extra).map((e) => [e.eventId, e.sequence])).toEqual(primaryCalls)
    expect(calls(filtered).map((e) => [e.eventId, e.sequence])).toEqual(primaryCalls)
    // The workspace webhook had the session's events from its first, status included.
    expect(workspace.some((e) => e.type === 'session.status' && e.sessionId === session.sessionId)).toBe(true)

    const log = await call(
      'GET',
      `/v1/webhooks/deliveries?sessionId=${session.sessionId}&webhookId=${onlyCalls.webhookId}`,
    )
    expect(log.body.deliveries.length).toBeGreaterThanOrEqual(5)
    expect(
      log.body.deliveries.every((d: any) => d.webhookId === onlyCalls.webhookId && d.type === 'call.received'),
    ).toBe(true)
    await call('DELETE', `/v1/webhooks/${workspaceHook.webhookId}`)
  })

  it('keeps delivering to one webhook while another is down for an hour, then catches that one up in order', async () => {
    const session = await pair('down', '15550050002')
    const up = await addWebhook(session.sessionId, 'down-up', { events: ['call.received'] })
    const down = await addWebhook(session.sessionId, 'down-dead', { events: ['call.received'] })
    receiver.respond = (r) => (r.path === '/down-dead' ? 503 : 200)
    const callIds: string[] = []
    for (let step = 0; step < 6; step++) {
      const callId = t.sim.contact(CONTACT).call('15550050002')
      callIds.push(callId)
      const started = Date.now()
      await receiver.waitFor('down-up', up.secret, (events) => calls(events).some((e) => e.data.callId === callId))
      expect(Date.now() - started).toBeLessThan(5_000)
      skew += HOUR / 6 // ten minutes on, for the gateway's clock
      receiver.clockSkewMs = skew
    }
    expect(receiver.events('down-dead', down.secret)).toEqual([])
    // An hour on, it is still being tried (retries last WEBHOOK_RETRY_HOURS), and nothing waits behind it but its own.
    await pollUntil(
      () => receiver.requests.filter((r) => r.path === '/down-dead').length,
      (tries) => tries > 12,
      { what: 'the dead webhook to be tried again' },
    )
    const pending = await call('GET', `/v1/webhooks/deliveries?webhookId=${down.webhookId}&status=pending`)
    expect(pending.body.deliveries).toHaveLength(6)
    expect(pending.body.deliveries[5]).toMatchObject({ lastStatusCode: 503, webhookId: down.webhookId })
    expect(pending.body.deliveries[5].attempts).toBeGreaterThan(1)

    receiver.respond = () => 200
    const caught = await receiver.waitFor('down-dead', down.secret, (events) => calls(events).length >= 6, {
      timeoutMs: 15_000,
    })
    expect(calls(caught).map((e) => e.data.callId)).toEqual(callIds)
    expect(calls(receiver.events('down-up', up.secret)).map((e) => e.data.callId)).toEqual(callIds)
  })

  it('sends nothing more to a deleted webhook, pending deliveries included', async () => {
    const session = await pair('gone', '15550050003')
    const doomed = await addWebhook(session.sessionId, 'gone-doomed', { events: ['call.received'] })
    receiver.respond = (r) => (r.path === '/gone-doomed' ? 503 : 200)
    const before = t.sim.contact(CONTACT).call('15550050003')
    await receiver.waitFor('gone-primary', session.secret, (events) =>
      calls(events).some((e) => e.data.callId === before),
    )
    expect((await call('DELETE', `/v1/session/${session.sessionId}/webhooks/${doomed.webhookId}`)).status).toBe(200)
    const tried = receiver.requests.filter((r) => r.path === '/gone-doomed').length
    receiver.respond = () => 200
    const after = t.sim.contact(CONTACT).call('15550050003')
    await receiver.waitFor('gone-primary', session.secret, (events) =>
      calls(events).some((e) => e.data.callId === after),
    )
    await new Promise((resolve) => setTimeout(resolve, 1_000)) // several retry intervals (50-200 ms)
    // At most the POST that was under way at the delete finished; nothing after it.
    expect(receiver.requests.filter((r) => r.path === '/gone-doomed').length).toBeLessThanOrEqual(tried + 1)
    expect(calls(receiver.events('gone-doomed', doomed.secret)).map((e) => e.data.callId)).not.toContain(after)
    const log = await call('GET', `/v1/webhooks/deliveries?webhookId=${doomed.webhookId}`)
    expect(log.body.deliveries).toEqual([])
  })

  it('replays to one webhook the events written for it, under the same webhook-ids', async () => {
    const session = await pair('again', '15550050004')
    const hook = await addWebhook(session.sessionId, 'again-hook', { events: ['call.received'] })
    const callId = t.sim.contact(CONTACT).call('15550050004')
    const first = await receiver.waitFor('again-hook', hook.secret, (events) => calls(events).length === 1)
    const replay = await call('POST', '/v1/webhooks/replay', {
      sessionId: session.sessionId,
      webhookId: hook.webhookId,
      since: new Date(Date.now() + skew - 60_000).toISOString(),
    })
    expect(replay).toEqual({ status: 200, body: { replayed: 1, nextCursor: null } })
    const twice = await receiver.waitFor('again-hook', hook.secret, (events) => events.length === 2)
    expect(twice[1]).toEqual(first[0])
    expect(twice[1]!.data.callId).toBe(callId)
    // Another workspace's webhook, or none, is 404.
    const other = t.addWorkspace('elsewhere', 'paid')
    const foreign = await t.request('/v1/webhooks', {
      method: 'POST',
      body: JSON.stringify({ url: receiver.url('foreign') }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${other.key}` },
    })
    const foreignId = ((await foreign.json()) as any).webhookId
    for (const webhookId of [foreignId, 'whk_nope']) {
      const answer = await call('POST', '/v1/webhooks/replay', {
        sessionId: session.sessionId,
        webhookId,
        since: new Date(Date.now() + skew - 60_000).toISOString(),
      })
      expect(answer.status).toBe(404)
    }
  })
})
