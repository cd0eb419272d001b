import { createHash } from 'node:crypto'
import { proto } from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixture } from '../../wa-sim/fixtures'
import { startMediaServer, type MediaServer } from '../../support/media-server'
import { pollUntil } from '../../support/poll'
import { queryFile } from '../../support/sqlite-file'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import {
  fastWebhooks,
  loopbackWebhooks,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver'

const ACCOUNT = '15550046001'
const CUSTOMER = '15551460001'
const FRIEND = '15551460002'
const STRANGER = '15551460003'

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/**
 * Statuses end to end: the account's statuses go to status@broadcast with the audience Baileys
 * lists (the simulator, like WhatsApp, gives each listed contact the sender key and nobody
 * else the status), and contacts' statuses arrive as status.received events, files included.
 */
describe('statuses (stories)', () => {
  let t: SimulatedGateway
  let files: MediaServer
  let receiver: WebhookReceiver
  let sessionId: string
  let secret: string

  const received = (phone: string, messageId: string) => t.sim.contact(phone).waitForMessage((m) => m.id === messageId)
  const sawIt = (phone: string, messageId: string) =>
    t.sim
      .contact(phone)
      .inbox()
      .some((m) => m.id === messageId)
  const audienceRow = (messageId: string) =>
    queryFile<{ contacts: string }>(
      t.databasePath,
      'SELECT contacts FROM status_audiences WHERE session_id = ? AND message_id = ?',
      sessionId,
      messageId,
    ).map((row) => JSON.parse(row.contacts) as string[])[0]

  beforeAll(async () => {
    files = await startMediaServer()
    receiver = await startWebhookReceiver()
    t = await startSimulatedGateway({ config: { ...loopbackWebhooks, webhooks: fastWebhooks() } })
    for (const phone of [CUSTOMER, FRIEND, STRANGER]) t.sim.addContact(phone)
    ;({ sessionId, webhookSecret: secret } = await t.linkSession({
      phone: ACCOUNT,
      connect: { sessionName: 'shop', webhookUrl: receiver.url('shop') },
    }))
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await receiver.close()
    await files.close()
  })

  it('posts a text status on a coloured card to the listed contacts only', async () => {
    const { status, body } = await t.post('/v1/status/text', {
      sessionId,
      text: 'Open until 8 pm today',
      backgroundColor: '#128C7E',
      font: 2,
      contacts: [`+${CUSTOMER}`, FRIEND, FRIEND],
    })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body).toMatchObject({
      sessionId,
      phone: 'status@broadcast',
      direction: 'outbound',
      type: 'text',
      content: { text: 'Open until 8 pm today' },
    })
    for (const phone of [CUSTOMER, FRIEND]) {
      const seen = await received(phone, body.messageId)
      expect(seen.chat).toBe('status@broadcast')
      expect(seen.message.extendedTextMessage).toMatchObject({ text: 'Open until 8 pm today', font: 2 })
      expect(seen.message.extendedTextMessage?.backgroundArgb).toBe(0xff128c7e)
    }
    expect(sawIt(STRANGER, body.messageId)).toBe(false)
    expect(audienceRow(body.messageId)).toEqual([CUSTOMER, FRIEND])
    await t.waitForRecord(sessionId, body.messageId, (record) => record.status === 'sent')
    // A viewer opens it: its receipt comes from status@broadcast, the viewer as participant.
    t.sim.contact(FRIEND).receipt(body.messageId, 'read')
    await t.waitForRecord(sessionId, body.messageId, (record) => record.status === 'read')
    expect(t.sim.violations()).toEqual([])
  })

  it('posts to every contact the session knows when no list is given: who wrote or was written to', async () => {
    await t.sim.contact(CUSTOMER).send({ text: 'do you deliver?' }, { to: ACCOUNT })
    const reply = await t.post('/v1/message/text', { sessionId, phone: FRIEND, message: 'see you' })
    expect(reply.status).toBe(200)
    await pollUntil(
      () => t.get(`/v1/chat/all?sessionId=${sessionId}`),
      ({ body }) => body.chats.length === 2,
      { what: 'both chats recorded' },
    )

    const { status, body } = await t.post('/v1/status/text', { sessionId, text: 'New stock in' })
    expect(status, JSON.stringify(body)).toBe(200)
    for (const phone of [CUSTOMER, FRIEND]) await received(phone, body.messageId)
    expect(sawIt(STRANGER, body.messageId)).toBe(false)
    expect(audienceRow(body.messageId)?.sort()).toEqual([CUSTOMER, FRIEND].sort())
  })

  it('posts an image status: the contacts open the same file', async () => {
    const photo = fixture('jpeg').bytes
    files.serve('shelf.jpg', photo, 'image/jpeg')
    const { status, body } = await t.post('/v1/status/image', {
      sessionId,
      imageUrl: files.url('shelf.jpg'),
      caption: 'Fresh shelf',
      contacts: [CUSTOMER],
    })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body).toMatchObject({ phone: 'status@broadcast', type: 'image', content: { caption: 'Fresh shelf' } })
    const seen = await received(CUSTOMER, body.messageId)
    expect(seen.chat).toBe('status@broadcast')
    expect(seen.message.imageMessage?.caption).toBe('Fresh shelf')
    expect(sha256((await t.sim.contact(CUSTOMER).media(body.messageId)).bytes)).toBe(sha256(photo))
    expect(sawIt(FRIEND, body.messageId)).toBe(false)
  })

  it('deletes its own status for exactly the people it was shown to', async () => {
    const posted = await t.post('/v1/status/text', { sessionId, text: 'Oops, wrong price', contacts: [FRIEND] })
    expect(posted.status).toBe(200)
    await received(FRIEND, posted.body.messageId)

    const { status, body } = await t.post('/v1/status/delete', { sessionId, messageId: posted.body.messageId })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body).toEqual({ success: true, message: 'Message deleted for everyone' })
    const revoke = await t.sim
      .contact(FRIEND)
      .waitForMessage((m) => m.message.protocolMessage?.key?.id === posted.body.messageId)
    expect(revoke.chat).toBe('status@broadcast')
    expect(revoke.message.protocolMessage?.type).toBe(proto.Message.ProtocolMessage.Type.REVOKE)
    expect((await t.waitForRecord(sessionId, posted.body.messageId, (r) => r.status === 'deleted')).statusReason).toBe(
      'deleted_by_client',
    )
    const again = await t.post('/v1/status/delete', { sessionId, messageId: posted.body.messageId })
    expect(again.body).toEqual({ success: true, message: 'The message was already deleted' })
    expect(t.sim.violations()).toEqual([])
  })

  it('reports a contact’s status as status.received, not as a chat message, its file downloadable', async () => {
    const textId = await t.sim.contact(FRIEND).postStatus({ text: 'At the beach' }, ACCOUNT)
    const clip = fixture('jpeg').bytes
    const imageId = await t.sim
      .contact(FRIEND)
      .postStatus({ image: clip, mimetype: 'image/jpeg', caption: 'view', width: 32, height: 24 }, ACCOUNT)
    const events = await receiver.waitFor('shop', secret, (list) =>
      [textId, imageId].every((id) => list.some((e) => e.type === 'status.received' && e.data.messageId === id)),
    )
    const text = events.find((e) => e.type === 'status.received' && e.data.messageId === textId)!
    expect(text.data).toMatchObject({
      direction: 'inbound',
      phone: 'status@broadcast',
      participant: FRIEND,
      type: 'text',
      content: { text: 'At the beach' },
    })
    expect(events.some((e) => e.type === 'message.received' && [textId, imageId].includes(e.data.messageId))).toBe(
      false,
    )

    const image = events.find((e) => e.type === 'status.received' && e.data.messageId === imageId)!
    expect(image.data).toMatchObject({ type: 'image', content: { caption: 'view' } })
    // Followed without a credential, as a webhook receiver would (the app in process: no listener here).
    const download = await t.gateway.app.request(new URL(image.data.downloadUrl).pathname)
    expect(download.status).toBe(200)
    expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(clip))
    const byApi = await t.request(`/v1/message/${imageId}/media?sessionId=${sessionId}`)
    expect(sha256(new Uint8Array(await byApi.arrayBuffer()))).toBe(sha256(clip))

    // WhatsApp shows statuses apart from chats: the chat list leaves them out.
    const chats = await t.get(`/v1/chat/all?sessionId=${sessionId}`)
    expect(chats.status).toBe(200)
    expect(chats.body.chats.map((chat: { chat: string }) => chat.chat)).not.toContain('status@broadcast')
    expect(chats.body.chats.length).toBeGreaterThan(0)
  })
})
