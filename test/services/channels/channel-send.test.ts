import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChannelHandle } from '../../wa-sim/channel-handle'
import { fixture } from '../../wa-sim/fixtures'
import { pollUntil } from '../../support/poll'
import { startMediaServer, type MediaServer } from '../../support/media-server'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import {
  fastWebhooks,
  loopbackWebhooks,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver'

const ACCOUNT = '15550046101'
const READER = '15550046102'

/**
 * Posting to a channel through the message routes (`phone: "<digits>@newsletter"`): the real
 * Baileys client sends it as one <plaintext> proto, never Signal-encrypted, and the simulator
 * takes it only from the channel's owner or an admin, then relays it to its followers. A
 * channel the account only follows, or one WhatsApp does not know, is refused before anything
 * is recorded or sent.
 */
describe('posting to a channel the account owns', () => {
  let t: SimulatedGateway
  let files: MediaServer
  let receiver: WebhookReceiver
  let sessionId: string
  let readerSession: string
  let readerSecret: string
  let shop: ChannelHandle
  let followed: ChannelHandle

  const send = (path: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
    t.post(`/v1/message/${path}`, { sessionId, ...body }, headers ? { headers } : undefined)

  /** The simulator takes the stanza after the server ack the send waited for: wait for the post. */
  const postOf = async (id: string) =>
    (await pollUntil(
      () => shop.info().posts.find((p) => p.id === id),
      (post) => post !== undefined,
      { what: `post ${id}` },
    ))!

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    files = await startMediaServer()
    files.serve('photo.jpg', fixture('jpeg').bytes, 'image/jpeg')
    t = await startSimulatedGateway({
      config: { ...loopbackWebhooks, webhooks: fastWebhooks() },
    })
    ;({ sessionId } = await t.linkSession({ phone: ACCOUNT, connect: { sessionName: 'owner' } }))
    ;({ sessionId: readerSession, webhookSecret: readerSecret } = await t.linkSession({
      phone: READER,
      connect: { sessionName: 'reader', webhookUrl: receiver.url('reader') },
    }))
    shop = t.sim.createChannel({ name: 'Shop', owner: ACCOUNT, followers: [READER] })
    followed = t.sim.createChannel({ name: 'Other', followers: [ACCOUNT] })
  }, 90_000)
  afterAll(async () => {
    await t.close()
    await files.close()
    await receiver.close()
  })

  it('a text goes out as plaintext, is recorded, and reaches the followers as channel.message', async () => {
    const { status, body } = await send('text', { phone: shop.jid, message: 'Open today until 8' })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body).toMatchObject({ phone: shop.jid, lid: null, direction: 'outbound', type: 'text' })
    const post = await postOf(body.messageId)
    expect(post.sentBy).toBe(ACCOUNT)
    expect(post.message.extendedTextMessage?.text ?? post.message.conversation).toBe('Open today until 8')
    const events = await receiver.waitFor('reader', readerSecret, (all) =>
      all.some((e) => e.type === 'channel.message' && e.data.messageId === body.messageId),
    )
    expect(events.find((e) => e.data.messageId === body.messageId)!.data).toMatchObject({
      channelId: shop.jid,
      serverId: post.serverId,
      type: 'text',
      content: { text: 'Open today until 8' },
    })
    // The server's ack moves the record on; a channel has no delivery or read receipts.
    const record = await t.waitForRecord(sessionId, body.messageId, (r) => r.status === 'sent')
    expect(record).toMatchObject({ phone: shop.jid, content: { text: 'Open today until 8' } })
    // The account's posts to the channel are listed as a chat's messages are.
    const posted = await t.get(`/v1/message/all?sessionId=${sessionId}&phone=${encodeURIComponent(shop.jid)}`)
    expect(posted.body.messages.map((m: any) => m.messageId)).toEqual([body.messageId])
    // The reader's own session reads it back from WhatsApp too.
    const read = await t.get(`/v1/channel/${shop.jid}/messages?sessionId=${readerSession}`)
    expect(read.body.messages.map((m: any) => m.content.text)).toEqual(['Open today until 8'])
    expect(t.sim.violations()).toEqual([])
  })

  it('an image is uploaded unencrypted and posted with its caption', async () => {
    const { status, body } = await send('image', {
      phone: shop.jid,
      imageUrl: files.url('photo.jpg'),
      caption: 'New in',
    })
    expect(status, JSON.stringify(body)).toBe(200)
    const post = await postOf(body.messageId)
    expect(post.message.imageMessage).toMatchObject({ caption: 'New in', mimetype: 'image/jpeg' })
    // No media key: a channel's files are not encrypted.
    expect(post.message.imageMessage?.mediaKey?.length ?? 0).toBe(0)
    expect(t.sim.violations()).toEqual([])
  })

  it('the same Idempotency-Key posts once', async () => {
    const headers = { 'idempotency-key': 'channel-post-1' }
    const first = await send('text', { phone: shop.jid, message: 'once' }, headers)
    const again = await send('text', { phone: shop.jid, message: 'once' }, headers)
    expect(first.status).toBe(200)
    expect(again.body.messageId).toBe(first.body.messageId)
    await postOf(first.body.messageId)
    expect(
      shop
        .info()
        .posts.filter((p) => p.message.conversation === 'once' || p.message.extendedTextMessage?.text === 'once'),
    ).toHaveLength(1)
  })

  it('refuses a channel the account only follows (403) or WhatsApp does not know (404), recording nothing', async () => {
    const before = shop.info().posts.length + followed.info().posts.length
    const notOwner = await send('text', { phone: followed.jid, message: 'hijack' })
    expect(notOwner.status, JSON.stringify(notOwner.body)).toBe(403)
    expect(notOwner.body.error).toBe('forbidden')
    expect(notOwner.body.message).toMatch(/owner and admins/)
    const unknown = await send('text', { phone: '120363999999999999@newsletter', message: 'void' })
    expect(unknown.status, JSON.stringify(unknown.body)).toBe(404)
    expect(shop.info().posts.length + followed.info().posts.length).toBe(before)
    const list = await t.get(`/v1/message/all?sessionId=${sessionId}&limit=100`)
    expect(list.body.messages.map((m: any) => m.content.text)).not.toContain('hijack')
    expect(t.sim.violations()).toEqual([])
  })

  it('refuses buttons and lists to a channel, and a channel id where only a chat fits', async () => {
    const buttons = await send('buttons', {
      phone: shop.jid,
      text: 'Pick',
      buttons: [{ type: 'reply', text: 'A', id: 'a' }],
    })
    expect(buttons.status, JSON.stringify(buttons.body)).toBe(400)
    const react = await t.post('/v1/message/reaction', {
      sessionId,
      phone: shop.jid,
      messageId: shop.info().posts[0]!.id,
      emoji: '👍',
    })
    expect(react.status).toBe(400)
    for (const phone of ['123@newsletter', `${'9'.repeat(31)}@newsletter`, `${shop.jid}x`]) {
      const { status } = await send('text', { phone, message: 'x' })
      expect(status, phone).toBe(400)
    }
  })
})
