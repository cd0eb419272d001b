import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulatedGateway, type SimulatedGateway } from '../support/simulated-gateway'
import {
  fastWebhooks,
  loopbackWebhooks,
  startWebhookReceiver,
  type WebhookEvent,
  type WebhookReceiver,
} from '../support/webhook-receiver'

const ACCOUNT = '15550020001'
const QUIET_ACCOUNT = '15550020002'
const CONTACT = '15551240001'

/**
 * Every event kind, end to end: the real Baileys client against the simulator, a real HTTP
 * receiver on loopback, and every signature verified with the official standardwebhooks package.
 */
describe('webhook events of a session', () => {
  let t: SimulatedGateway
  let receiver: WebhookReceiver
  let sessionId: string
  let secret: string
  let qrCode: string

  const events = () => receiver.events('main', secret)
  const waitFor = (predicate: (events: WebhookEvent[]) => boolean) => receiver.waitFor('main', secret, predicate)
  const has = (type: string, match: (e: WebhookEvent) => boolean) => (list: WebhookEvent[]) =>
    list.some((e) => e.type === type && match(e))

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    t = await startSimulatedGateway({ config: { ...loopbackWebhooks, webhooks: fastWebhooks() } })
    t.sim.addContact(CONTACT)
    const linked = await t.linkSession({
      phone: ACCOUNT,
      connect: { sessionName: 'main', webhookUrl: receiver.url('main') },
    })
    ;({ sessionId, webhookSecret: secret } = linked)
    qrCode = linked.connected.qrCode
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await receiver.close()
  })

  it('reports pairing: the new session, its QR and the connection, in sequence', async () => {
    const list = await waitFor(has('session.status', (e) => e.data.status === 'connected'))
    expect(list[0]).toMatchObject({
      type: 'session.status',
      sessionId,
      sequence: 1,
      data: { status: 'pending', previousStatus: null },
    })
    expect(list.find((e) => e.type === 'session.qr')).toMatchObject({ sessionId, data: { qr: qrCode } })
    expect(list.find((e) => e.type === 'session.status' && e.data.status === 'connected')).toMatchObject({
      data: { status: 'connected', previousStatus: 'pending', statusReason: null, number: ACCOUNT },
    })
    expect(list.map((e) => e.sequence)).toEqual(list.map((_, i) => i + 1))
    for (const e of list) expect(e.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
  })

  it('reports a send and each receipt as message.status, never a credential', async () => {
    const sent = await t.post('/v1/message/text', { sessionId, phone: CONTACT, message: 'status please' })
    expect(sent.status).toBe(200)
    const messageId = sent.body.messageId as string
    await t.sim.contact(CONTACT).waitForMessage((m) => m.id === messageId)
    t.sim.contact(CONTACT).receipt(messageId, 'delivered')
    await waitFor(has('message.status', (e) => e.data.messageId === messageId && e.data.status === 'delivered'))
    t.sim.contact(CONTACT).receipt(messageId, 'read')
    const list = await waitFor(has('message.status', (e) => e.data.messageId === messageId && e.data.status === 'read'))
    const statuses = list
      .filter((e) => e.type === 'message.status' && e.data.messageId === messageId)
      .map((e) => e.data.status)
    expect(statuses).toEqual(['pending', 'sent', 'delivered', 'read'])
    expect(list.find((e) => e.data.messageId === messageId)).toMatchObject({
      data: { direction: 'outbound', phone: CONTACT, type: 'text', content: { text: 'status please' } },
    })
    const raw = receiver.requests.map((r) => r.raw).join('\n')
    expect(raw).not.toContain(secret)
    expect(raw).not.toContain('payload')
    expect(raw).not.toContain(t.key)
  })

  it('reports an inbound message with the chat’s phone and LID, and the sender’s edit and revoke', async () => {
    const contact = t.sim.contact(CONTACT)
    const messageId = await contact.send({ text: 'hello gateway' }, { to: ACCOUNT })
    await waitFor(has('message.received', (e) => e.data.messageId === messageId))
    await contact.edit(messageId, 'hello gateway, edited')
    await waitFor(has('message.edited', (e) => e.data.messageId === messageId))
    await contact.revoke(messageId)
    const list = await waitFor(has('message.deleted', (e) => e.data.messageId === messageId))
    const mine = list.filter((e) => e.data.messageId === messageId)
    expect(mine.map((e) => e.type)).toEqual(['message.received', 'message.edited', 'message.deleted'])
    expect(mine[0]!.data).toMatchObject({
      direction: 'inbound',
      phone: CONTACT,
      lid: `${contact.lid}@lid`,
      type: 'text',
      content: { text: 'hello gateway' },
    })
    expect(mine[1]!.data).toMatchObject({ content: { text: 'hello gateway, edited' }, editedAt: expect.any(String) })
    expect(mine[2]!.data).toMatchObject({ reason: 'revoked_by_sender' })
  })

  it('reports the session’s own edit and delete', async () => {
    const sent = await t.post('/v1/message/text', { sessionId, phone: CONTACT, message: 'typo' })
    const messageId = sent.body.messageId as string
    expect(
      (await t.post('/v1/message/edit', { sessionId, phone: CONTACT, messageId, newMessage: 'fixed' })).status,
    ).toBe(200)
    expect((await t.post('/v1/message/delete', { sessionId, phone: CONTACT, messageId })).status).toBe(200)
    const list = await waitFor(has('message.deleted', (e) => e.data.messageId === messageId))
    expect(list.find((e) => e.type === 'message.edited' && e.data.messageId === messageId)).toMatchObject({
      data: { direction: 'outbound', content: { text: 'fixed' } },
    })
    expect(list.find((e) => e.type === 'message.deleted' && e.data.messageId === messageId)).toMatchObject({
      data: { reason: 'deleted_by_client' },
    })
  })

  it('reports calls, with rejected when the session rejects them by itself', async () => {
    const answered = t.sim.contact(CONTACT).call(ACCOUNT)
    await waitFor(has('call.received', (e) => e.data.callId === answered))
    const update = await t.request(`/v1/session/update/${sessionId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ autoRejectCalls: true }),
    })
    expect(update.status).toBe(200)
    const rejected = t.sim.contact(CONTACT).call(ACCOUNT)
    const list = await waitFor(has('call.received', (e) => e.data.callId === rejected))
    expect(list.find((e) => e.data.callId === answered)).toMatchObject({ data: { rejected: false, isVideo: false } })
    expect(list.find((e) => e.data.callId === rejected)).toMatchObject({ data: { rejected: true } })
  })

  it('kept one session’s events in order with no gaps and no duplicates', () => {
    const list = events()
    expect(list.map((e) => e.sequence)).toEqual(list.map((_, i) => i + 1))
  })

  it('webhookMessages: false suppresses message events only', async () => {
    const quiet = await t.linkSession({
      phone: QUIET_ACCOUNT,
      connect: { sessionName: 'quiet', webhookUrl: receiver.url('quiet'), webhookMessages: false },
    })
    const sent = await t.post('/v1/message/text', {
      sessionId: quiet.sessionId,
      phone: CONTACT,
      message: 'not reported',
    })
    expect(sent.status).toBe(200)
    await t.sim.contact(CONTACT).send({ text: 'not reported either' }, { to: QUIET_ACCOUNT })
    await t.sim.contact(CONTACT).waitForMessage((m) => m.id === sent.body.messageId)
    // Events of one session arrive in order: once this call is in, nothing recorded before it is missing.
    const callId = t.sim.contact(CONTACT).call(QUIET_ACCOUNT)
    const list = await receiver.waitFor(
      'quiet',
      quiet.webhookSecret,
      has('call.received', (e) => e.data.callId === callId),
    )
    expect(list.filter((e) => e.type.startsWith('message.'))).toEqual([])
    expect(list.map((e) => e.type)).toEqual(expect.arrayContaining(['session.status', 'session.qr', 'call.received']))
  })
})
