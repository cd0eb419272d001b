import { createHash } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ChatwootStandIn } from '../../support/chatwoot/stand-in'
import { fixtures } from '../../support/media-fixtures'
import { pollUntil } from '../../support/poll'
import type { SimulatedGateway } from '../../support/simulated-gateway'
import { type ChatwootRig, startChatwootRig } from './support/rig'

const ACCOUNT = '15550034001'
const ANNA = '15551234001'
const BORIS = '15551234002'
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
const textOf = (m: { message: any }): string => m.message.conversation ?? m.message.extendedTextMessage?.text ?? ''

/**
 * A session mirrored into a Chatwoot inbox, end to end: the real Baileys client against the
 * simulator on one side, the Chatwoot stand-in (every request checked against Chatwoot's
 * published OpenAPI) on the other, the gateway served over loopback HTTP in between so that
 * Chatwoot's webhooks reach its callback URL.
 */
describe('Chatwoot', () => {
  let rig: ChatwootRig
  let t: SimulatedGateway
  let cw: ChatwootStandIn
  let baseUrl: string
  let sessionId: string

  const put = (body: Record<string, unknown>) => rig.put(sessionId, body)
  const enable = (extra: Record<string, unknown> = {}) => rig.enable(sessionId, extra)
  const conversationOf = (phone: string) => rig.conversationOf(phone)
  const messagesIn = (conversationId: number) => rig.messagesIn(conversationId)
  const chatwootHas = (phone: string, content: string) =>
    rig.waitForMessage(content, (m) => m.conversationId === conversationOf(phone)?.id)

  beforeAll(async () => {
    rig = await startChatwootRig()
    ;({ t, cw, baseUrl } = rig)
    t.sim.addContact(ANNA)
    t.sim.addContact(BORIS)
    sessionId = (await t.linkSession({ phone: ACCOUNT, connect: { sessionName: 'support' } })).sessionId
  }, 60_000)
  afterEach(() => {
    cw.down = false
    expect(cw.violations).toEqual([])
  })
  afterAll(() => rig?.close())

  it('refuses a token Chatwoot refuses (400) and an unreachable Chatwoot (502), saving nothing; then finds or creates the inbox and answers the token masked', async () => {
    const none = await put({ url: cw.url, accountId: cw.accountId })
    expect(none.status).toBe(400)
    expect(await none.json()).toMatchObject({ details: { fields: [{ path: 'apiToken' }] } })
    const wrong = await put({ url: cw.url, accountId: cw.accountId, apiToken: 'not-the-token' })
    expect(wrong.status).toBe(400)
    expect(await wrong.json()).toMatchObject({ error: 'validation_error', details: { fields: [{ path: 'apiToken' }] } })
    cw.down = true
    const down = await put({ url: cw.url, accountId: cw.accountId, apiToken: cw.token })
    expect(down.status).toBe(502)
    cw.down = false
    expect((await t.get(`/v1/session/${sessionId}/chatwoot`)).status).toBe(404)
    expect(cw.inboxes).toEqual([])

    const config = await enable()
    expect(config).toMatchObject({
      sessionId,
      url: cw.url,
      accountId: cw.accountId,
      inboxName: 'support',
      state: 'ok',
      apiToken: expect.stringMatching(/^•+.{4}$/),
    })
    expect(JSON.stringify(config)).not.toContain(cw.token)
    const [inbox] = cw.inboxes
    // Field by field: Bun's toMatchObject writes its matchers into the object it checks (the stand-in's own record).
    expect(inbox?.name).toBe('support')
    expect(inbox?.webhookUrl).toMatch(new RegExp(`^${baseUrl}/v1/chatwoot/${sessionId}/callback/[\\w-]+$`))
    // PUT again: the same inbox, found by name, with the same callback URL; the token may be left out.
    await enable({ startPending: false })
    const noToken = await put({ url: cw.url, accountId: cw.accountId, ignoreGroups: true })
    expect(noToken.status, await noToken.clone().text()).toBe(200)
    expect(await noToken.json()).toMatchObject({ ignoreGroups: true, apiToken: config.apiToken })
    await enable({ ignoreGroups: false })
    expect(cw.inboxes).toHaveLength(1)
    expect((await t.get(`/v1/session/${sessionId}/chatwoot`)).body).toMatchObject({ inboxId: inbox!.id })
    // Another workspace cannot see or change it.
    const stranger = t.addWorkspace('chatwoot-stranger', 'paid').key
    expect((await t.get(`/v1/session/${sessionId}/chatwoot`, stranger)).status).toBe(404)
  })

  it('mirrors a contact’s text as an incoming message of one contact and conversation, and ignores Chatwoot’s echo of it', async () => {
    await t.sim.contact(ANNA).send({ text: 'hello support' }, { to: ACCOUNT })
    const message = await chatwootHas(ANNA, 'hello support')
    expect(message).toMatchObject({ messageType: 'incoming', sourceId: expect.stringMatching(/^WAID:/) })
    const contact = cw.contacts.find((c) => c.phoneNumber === `+${ANNA}`)!
    expect(contact.identifier).toMatch(/^wa-gateway:/)
    await t.sim.contact(ANNA).send({ text: 'second line' }, { to: ACCOUNT })
    await chatwootHas(ANNA, 'second line')
    expect(cw.contacts.filter((c) => c.phoneNumber === `+${ANNA}`)).toHaveLength(1)
    expect(cw.conversations.filter((c) => c.contactId === contact.id)).toHaveLength(1)
    await cw.settled()
    // Chatwoot posts message_created for what the gateway created too: answered, never sent back.
    const echoes = cw.deliveries.filter(
      (d) => d.event === 'message_created' && d.payload.source_id?.startsWith('WAID:'),
    )
    expect(echoes.length).toBeGreaterThanOrEqual(2)
    expect(echoes.every((d) => d.status === 200)).toBe(true)
  })

  it('sends an agent’s reply to the contact once, signed with the agent’s name, and never back into Chatwoot; a private note is not sent', async () => {
    const conversation = conversationOf(ANNA)!
    const { message, callbackStatus } = await cw.agentReply(conversation.id, {
      content: 'How can we help?',
      agentName: 'Maria',
    })
    expect(callbackStatus).toBe(200)
    const received = await t.sim.contact(ANNA).waitForMessage((m) => textOf(m)?.includes('How can we help?'))
    expect(textOf(received)).toBe('*Maria*\nHow can we help?')

    // The same callback again (Chatwoot retrying, a proxy replaying): nothing more is sent.
    const delivery = cw.deliveries.find((d) => d.event === 'message_created' && d.payload.id === message.id)!
    const again = await fetch(delivery.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(delivery.payload),
    })
    expect(again.status).toBe(200)
    await cw.agentReply(conversation.id, { content: 'internal: VIP customer', private: true })
    await t.sim.contact(ANNA).send({ text: 'thanks!' }, { to: ACCOUNT })
    await chatwootHas(ANNA, 'thanks!')
    const all = await pollUntil(
      async () => (await t.get(`/v1/message/all?sessionId=${sessionId}&phone=${ANNA}`)).body.messages as any[],
      (messages) => messages.some((m) => m.content?.text === 'thanks!'),
    )
    expect(all.filter((m) => m.direction === 'outbound' && m.content?.text?.includes('How can we help?'))).toHaveLength(
      1,
    )
    expect(all.some((m) => m.content?.text?.includes('VIP'))).toBe(false)
    // The reply's status events did not create a second copy in Chatwoot.
    expect(messagesIn(conversation.id).filter((m) => m.content?.includes('How can we help?'))).toHaveLength(1)
  })

  it('mirrors what the session sends through the API as outgoing messages', async () => {
    const sent = await t.post('/v1/message/text', { sessionId, phone: BORIS, message: 'Your order shipped' })
    expect(sent.status).toBe(200)
    const message = await chatwootHas(BORIS, 'Your order shipped')
    expect(message.messageType).toBe('outgoing')
    // Chatwoot's message_created for it (an outgoing message, as an agent's) is not sent again.
    await cw.settled()
    await t.sim.contact(BORIS).send({ text: 'great' }, { to: ACCOUNT })
    await chatwootHas(BORIS, 'great')
    const received = t.sim
      .contact(BORIS)
      .inbox()
      .filter((m) => textOf(m).includes('Your order shipped'))
    expect(received).toHaveLength(1)
  })

  it('refuses a callback with a wrong token (401) or a malformed body (400)', async () => {
    const url = cw.inboxes[0]!.webhookUrl!
    const wrong = await fetch(url.replace(/callback\/.+$/, 'callback/AAAA'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"event":"message_created"}',
    })
    expect(wrong.status).toBe(401)
    const malformed = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"event":',
    })
    expect(malformed.status).toBe(400)
    const badShape = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'message_created', id: 'x', conversation: { id: 'y' } }),
    })
    expect(badShape.status).toBe(400)
    // What a send would refuse (an attachment URL that is none, a text over the limit) is 400 too, never a 500.
    const conversation = conversationOf(ANNA)!
    const agentSays = (extra: Record<string, unknown>) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          event: 'message_created',
          id: 990_000 + Math.floor(Math.random() * 1000),
          message_type: 'outgoing',
          private: false,
          conversation: { id: conversation.id, inbox_id: cw.inboxes[0]!.id },
          inbox: { id: cw.inboxes[0]!.id },
          sender: { name: 'Maria', type: 'user' },
          ...extra,
        }),
      })
    const notAUrl = await agentSays({
      content: 'see file',
      attachments: [{ file_type: 'file', data_url: 'not a url' }],
    })
    expect(notAUrl.status).toBe(400)
    const tooLong = await agentSays({ content: 'x'.repeat(65_536) })
    expect(tooLong.status).toBe(400)
    expect(await (await agentSays({ content: '' })).json()).toEqual({ handled: false, reason: 'nothing to send' })
    // The token is the URL's credential: the access log names the route, never the token.
    const token = url.slice(url.lastIndexOf('/') + 1)
    expect(rig.logs.some((line) => line.includes('/callback/…'))).toBe(true)
    expect(rig.logs.filter((line) => line.includes(token))).toEqual([])
    expect(rig.logs.filter((line) => line.includes(cw.token))).toEqual([])
  })

  it('puts a received photo into Chatwoot as an attachment, byte for byte, and an agent’s photo reaches the contact', async () => {
    const png = Buffer.from(await fixtures.png())
    await t.sim.contact(ANNA).send({ image: png, mimetype: 'image/png', caption: 'the broken part' }, { to: ACCOUNT })
    const message = await chatwootHas(ANNA, 'the broken part')
    expect(message.attachments?.map((a) => sha256(a.bytes))).toEqual([sha256(png)])

    const conversation = conversationOf(ANNA)!
    await cw.agentReply(conversation.id, {
      content: 'like this one?',
      agentName: 'Maria',
      attachments: [{ fileName: 'part.png', mimeType: 'image/png', bytes: png }],
    })
    const received = await t.sim
      .contact(ANNA)
      .waitForMessage((m) => m.message.imageMessage?.caption?.includes('like this one?') === true)
    expect(received.message.imageMessage?.mimetype).toBe('image/png')
    expect(sha256((await t.sim.contact(ANNA).media(received.id)).bytes)).toBe(sha256(png))
  })

  it('holds messages while Chatwoot is down and delivers them in order when it is back', async () => {
    cw.down = true
    for (const text of ['one', 'two', 'three'])
      await t.sim.contact(BORIS).send({ text: `queued ${text}` }, { to: ACCOUNT })
    await pollUntil(
      async () => (await t.get(`/v1/session/${sessionId}/chatwoot`)).body,
      (config) => config.state === 'error',
      { what: 'the integration to report the failure' },
    )
    cw.down = false
    await chatwootHas(BORIS, 'queued three')
    const contents = messagesIn(conversationOf(BORIS)!.id)
      .map((m) => m.content)
      .filter((c) => c?.startsWith('queued'))
    expect(contents).toEqual(['queued one', 'queued two', 'queued three'])
    await pollUntil(
      async () => (await t.get(`/v1/session/${sessionId}/chatwoot`)).body,
      (config) => config.state === 'ok',
    )
  })

  it('starts afresh when the contact was deleted in Chatwoot instead of blocking the chat', async () => {
    const before = cw.contacts.find((c) => c.phoneNumber === `+${BORIS}`)!
    cw.deleteContact(before.id)
    await t.sim.contact(BORIS).send({ text: 'are you there?' }, { to: ACCOUNT })
    await chatwootHas(BORIS, 'are you there?')
    const after = cw.contacts.find((c) => c.phoneNumber === `+${BORIS}`)!
    expect(after.id).not.toBe(before.id)
  })

  it('deletes for everyone on WhatsApp what an agent deletes in Chatwoot', async () => {
    const conversation = conversationOf(ANNA)!
    const { message } = await cw.agentReply(conversation.id, { content: 'oops, wrong customer', agentName: 'Maria' })
    const received = await t.sim.contact(ANNA).waitForMessage((m) => textOf(m)?.includes('oops, wrong customer'))
    const { callbackStatus } = await cw.deleteMessageInUi(conversation.id, message.id)
    expect(callbackStatus).toBe(200)
    await t.sim
      .contact(ANNA)
      .waitForMessage(
        (m) => m.message.protocolMessage?.key?.id === received.id && m.message.protocolMessage?.type === 0,
      )
  })

  it('stops on DELETE: callbacks are refused and nothing more reaches Chatwoot', async () => {
    const url = cw.inboxes[0]!.webhookUrl!
    const removed = await t.request(`/v1/session/${sessionId}/chatwoot`, { method: 'DELETE' })
    expect(await removed.json()).toEqual({ sessionId, deleted: true })
    const count = cw.messages.length
    await t.sim.contact(ANNA).send({ text: 'after the end' }, { to: ACCOUNT })
    await t.waitForRecord(
      sessionId,
      (await t.get(`/v1/message/all?sessionId=${sessionId}&phone=${ANNA}`)).body.messages[0].messageId,
      () => true,
    )
    const refused = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'message_created', id: 1, conversation: { id: 1 } }),
    })
    expect(refused.status).toBe(401)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(cw.messages.length).toBe(count)
  })
})
