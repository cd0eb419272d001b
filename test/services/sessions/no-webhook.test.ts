import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readEventStream, type OpenStream } from '../../support/event-stream'
import { pollUntil } from '../../support/poll'
import { queryFile } from '../../support/sqlite-file'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import { fastWebhooks, loopbackWebhooks, startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver'

const ACCOUNT = '15550034001'
const CONTACT = '15551234002'
const EPOCH = '2000-01-01T00:00:00.000Z'

/**
 * A session without a webhook of its own (webhookUrl left out on connect, or set to null later):
 * its events are written and read from the event stream and the delivery log, nothing is ever
 * posted or left pending for a URL it does not have. HTTP to the app, the real Baileys client
 * against the simulator, a real local webhook receiver, the rows read from the SQLite file.
 */
describe('a session with no webhookUrl', () => {
  let t: SimulatedGateway
  let receiver: WebhookReceiver
  let sessionId: string
  let webhookSecret: string
  const open: OpenStream[] = []
  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    t = await startSimulatedGateway({ plan: 'paid', config: { ...loopbackWebhooks, webhooks: fastWebhooks() } })
    t.sim.addContact(CONTACT)
  })
  afterAll(async () => {
    for (const stream of open) stream.close()
    await t.close()
    await receiver.close()
  })

  const rows = <T>(sql: string, ...params: unknown[]) => queryFile<T>(t.databasePath, sql, ...params)
  const count = (sql: string, ...params: unknown[]) => rows<{ n: number }>(sql, ...params)[0]!.n
  const put = async (body: unknown) => {
    const response = await t.request(`/v1/session/update/${sessionId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as any }
  }
  const write = (text: string) => t.sim.contact(CONTACT).send({ text }, { to: ACCOUNT })
  const received = (text: string) => (events: { type: string; data: any }[]) =>
    events.some((e) => e.type === 'message.received' && e.data.content?.text === text)

  it('connects without one: null in every answer, its events in the stream, no delivery anywhere', async () => {
    const abort = new AbortController()
    const response = await t.request('/v1/events', { headers: { authorization: `Bearer ${t.key}` }, signal: abort.signal })
    const stream = readEventStream(response, abort)
    open.push(stream)

    const linked = await t.linkSession({ phone: ACCOUNT, connect: { sessionName: 'no-hook', webhookUrl: undefined } })
    sessionId = linked.sessionId
    webhookSecret = linked.webhookSecret
    expect(linked.connected.webhookUrl).toBeNull()
    expect(linked.session.webhookUrl).toBeNull()
    expect(webhookSecret).toMatch(/^whsec_/) // there for the day a URL is set

    await write('hello before any webhook')
    const events = await stream.until((all) =>
      all.some((e) => e.event === 'message.received' && JSON.parse(e.data).data.content?.text === 'hello before any webhook'),
    )
    expect(events.some((e) => e.event === 'session.status' && JSON.parse(e.data).data.status === 'connected')).toBe(true)

    expect(count('SELECT count(*) AS n FROM webhook_events WHERE session_id = ?', sessionId)).toBeGreaterThanOrEqual(3)
    expect(count('SELECT count(*) AS n FROM webhook_deliveries WHERE session_id = ?', sessionId)).toBe(0)
    expect((await t.get(`/v1/webhooks/deliveries?sessionId=${sessionId}`)).body.deliveries).toEqual([])
    expect(receiver.requests).toEqual([])
  })

  it('refuses replay and retry to the webhook it does not have, saying how to get one', async () => {
    const replay = await t.post('/v1/webhooks/replay', { sessionId, since: EPOCH })
    expect(replay.status).toBe(409)
    expect(replay.body).toMatchObject({ error: 'session_state_conflict', details: { webhookUrl: null } })
    expect(replay.body.message).toContain(`PUT /v1/session/update/${sessionId}`)
    // An empty string is no way to clear it: null is.
    expect((await put({ webhookUrl: '' })).status).toBe(400)
  })

  it('a URL set later gets the events from then on; those before stay unsent until a replay', async () => {
    const set = await put({ webhookUrl: receiver.url('later') })
    expect(set.status).toBe(200)
    expect(set.body.webhookUrl).toBe(receiver.url('later'))

    await write('after the webhook was set')
    await receiver.waitFor('later', webhookSecret, received('after the webhook was set'))
    expect(received('hello before any webhook')(receiver.events('later', webhookSecret))).toBe(false)

    const replay = await t.post('/v1/webhooks/replay', { sessionId, since: EPOCH })
    expect(replay.status).toBe(200)
    expect(replay.body.replayed).toBeGreaterThanOrEqual(4) // the statuses, the first message, the one since
    const texts = (events: { type: string; data: any }[]) =>
      events.filter((e) => e.type === 'message.received').map((e) => e.data.content.text)
    const all = await receiver.waitFor('later', webhookSecret, (events) => texts(events).length === 3)
    // The replay in the session's order, the earlier event included, behind the one delivered live.
    expect(texts(all)).toEqual(['after the webhook was set', 'hello before any webhook', 'after the webhook was set'])
  })

  it('cleared with null: what waited for the old URL ends failed, nothing new waits, retry is refused', async () => {
    receiver.respond = (request) => (request.path === '/down' ? 503 : 200)
    expect((await put({ webhookUrl: receiver.url('down') })).status).toBe(200)
    await write('while the webhook is down')
    await pollUntil(
      () => rows<{ attempts: number }>("SELECT attempts FROM webhook_deliveries WHERE session_id = ? AND status = 'pending'", sessionId),
      (pending) => pending.some((d) => d.attempts >= 1),
      { what: 'a delivery to the failing webhook to be retried' },
    )

    const cleared = await put({ webhookUrl: null })
    expect(cleared.status).toBe(200)
    expect(cleared.body.webhookUrl).toBeNull()
    expect((await t.get('/v1/session/all')).body.sessions[0].webhookUrl).toBeNull()
    const pending = "SELECT count(*) AS n FROM webhook_deliveries WHERE session_id = ? AND status = 'pending'"
    expect(count(pending, sessionId)).toBe(0)
    const abandoned = rows<{ id: string; last_error: string }>(
      "SELECT id, last_error FROM webhook_deliveries WHERE session_id = ? AND status = 'failed'",
      sessionId,
    )
    expect(abandoned.length).toBeGreaterThanOrEqual(1)
    expect(abandoned.map((d) => d.last_error)).toContain('the session’s webhookUrl was removed')

    const before = count('SELECT count(*) AS n FROM webhook_deliveries WHERE session_id = ?', sessionId)
    await write('after the webhook was cleared')
    await pollUntil(
      () => rows<{ body: string }>("SELECT body FROM webhook_events WHERE session_id = ? AND type = 'message.received'", sessionId),
      (events) => events.some((e) => e.body.includes('after the webhook was cleared')),
      { what: 'the message written to the outbox' },
    )
    expect(count('SELECT count(*) AS n FROM webhook_deliveries WHERE session_id = ?', sessionId)).toBe(before)
    expect(count(pending, sessionId)).toBe(0)
    // A POST that was under way when the URL was removed may still land; nothing after it.
    const posted = receiver.requests.length

    const retry = await t.post(`/v1/webhooks/deliveries/${abandoned[0]!.id}/retry`, {})
    expect(retry.status).toBe(409)
    expect(retry.body.error).toBe('session_state_conflict')
    await new Promise((resolve) => setTimeout(resolve, 300)) // the dispatcher's retries would have come by now
    expect(receiver.requests.length).toBe(posted)
  })
})
