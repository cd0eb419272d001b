import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readEventStream } from '../support/event-stream'
import { startSimulatedGateway, type SimulatedGateway } from '../support/simulated-gateway'
import {
  fastWebhooks,
  loopbackWebhooks,
  startWebhookReceiver,
  type WebhookEvent,
  type WebhookReceiver,
} from '../support/webhook-receiver'

const ACCOUNT = '15550021001'
const CONTACT = '15551241001'

/**
 * A session's `webhookEvents` through the public surface: the real Baileys client against the
 * simulator, a real receiver on loopback, the delivery log over HTTP.
 */
describe('webhookEvents: the event types a session gets', () => {
  let t: SimulatedGateway
  let receiver: WebhookReceiver
  let sessionId: string
  let secret: string

  const events = () => receiver.events('filtered', secret)
  const waitFor = (predicate: (events: WebhookEvent[]) => boolean) => receiver.waitFor('filtered', secret, predicate)
  const update = async (body: unknown) => {
    const response = await t.request(`/v1/session/update/${sessionId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as any }
  }
  const sendText = async (message: string) => {
    const sent = await t.post('/v1/message/text', { sessionId, phone: CONTACT, message })
    expect(sent.status).toBe(200)
    return sent.body.messageId as string
  }
  const deliveredTypes = async () =>
    ((await t.get(`/v1/webhooks/deliveries?sessionId=${sessionId}&limit=100`)).body.deliveries as { type: string }[])
      .map((d) => d.type)
      .sort()

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    t = await startSimulatedGateway({ plan: 'paid', config: { ...loopbackWebhooks, webhooks: fastWebhooks() } })
    t.sim.addContact(CONTACT)
    const linked = await t.linkSession({
      phone: ACCOUNT,
      connect: { sessionName: 'filtered', webhookUrl: receiver.url('filtered'), webhookEvents: ['message.received'] },
    })
    expect(linked.connected.webhookEvents).toEqual(['message.received'])
    ;({ sessionId, webhookSecret: secret } = linked)
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await receiver.close()
  })

  it('shows the filter in the session list', async () => {
    expect((await t.listSessions()).find((s) => s.sessionId === sessionId)).toMatchObject({
      webhookEvents: ['message.received'],
      webhookMessages: true,
    })
  })

  it('delivers a contact’s message and nothing the filter leaves out: no session.status, no message.status', async () => {
    const sentId = await sendText('not reported: a message.status kind')
    await t.sim.contact(CONTACT).waitForMessage((m) => m.id === sentId)
    await t.sim.contact(CONTACT).send({ text: 'reported' }, { to: ACCOUNT })
    const list = await waitFor((l) =>
      l.some((e) => e.type === 'message.received' && e.data.content?.text === 'reported'),
    )
    // Events of a session arrive in order: the pairing's statuses and the send's `pending` were
    // recorded before this message, so had they been written they would be here already.
    expect(list.map((e) => e.type)).toEqual(['message.received'])
    // Not written at all: sequence stays gap-free and the delivery log has nothing else.
    expect(list[0]?.sequence).toBe(1)
    expect(await deliveredTypes()).toEqual(['message.received'])
    // Nor in the live stream: an unknown Last-Event-ID replays from the oldest event kept.
    const abort = new AbortController()
    const response = await t.request(`/v1/events?sessionId=${sessionId}`, {
      headers: { 'last-event-id': 'evt_notkept' },
      signal: abort.signal,
    })
    const stream = readEventStream(response, abort)
    try {
      const streamed = await stream.until((e) => e.some((event) => event.data.includes('"reported"')))
      expect(streamed.map((event) => event.event)).toEqual(['message.received'])
    } finally {
      stream.close()
    }
  })

  it('takes a widened filter for the events that follow', async () => {
    const widened = await update({ webhookEvents: ['message.received', 'message.status'] })
    expect(widened.status).toBe(200)
    expect(widened.body.webhookEvents).toEqual(['message.received', 'message.status'])
    const sentId = await sendText('reported now')
    const list = await waitFor((l) => l.some((e) => e.type === 'message.status' && e.data.messageId === sentId))
    expect(list.find((e) => e.type === 'message.status' && e.data.messageId === sentId)?.data.status).toBe('pending')
    expect(list.filter((e) => !e.type.startsWith('message.'))).toEqual([])
    expect(list.map((e) => e.sequence)).toEqual(list.map((_, i) => i + 1))
  })

  it('narrows again: a call is not written while the list leaves it out', async () => {
    const before = events().length
    t.sim.contact(CONTACT).call(ACCOUNT)
    // The call reaches the session before this message does: had it been written, it would arrive first.
    await t.sim.contact(CONTACT).send({ text: 'after the call' }, { to: ACCOUNT })
    const list = await waitFor((l) => l.some((e) => e.data.content?.text === 'after the call'))
    expect(list.slice(before).map((e) => e.type)).not.toContain('call.received')
  })

  it('null restores every event type', async () => {
    const restored = await update({ webhookEvents: null })
    expect(restored.status).toBe(200)
    expect(restored.body.webhookEvents).toBeNull()
    const callId = t.sim.contact(CONTACT).call(ACCOUNT)
    await waitFor((l) => l.some((e) => e.type === 'call.received' && e.data.callId === callId))
    expect((await t.listSessions()).find((s) => s.sessionId === sessionId)?.webhookEvents).toBeNull()
  })
})
