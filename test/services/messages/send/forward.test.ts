import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixture } from '../../../wa-sim/fixtures'
import { startMediaServer, type MediaServer } from '../../../support/media-server'
import { startSimulatedGateway, type SimulatedGateway } from '../../../support/simulated-gateway'

const ACCOUNT = '15550036001'
const CONTACT = '15551236001'
const FRIEND = '15551236002'

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/**
 * POST /v1/message/{messageId}/forward through the real Baileys client to the simulator: what the
 * friend's phone decrypts (the content, marked forwarded), that a file goes with the upload it
 * already has (same direct path and key, no new upload, nothing fetched again), and the refusals.
 */
describe('forwarding a recorded message', () => {
  let t: SimulatedGateway
  let files: MediaServer
  let sessionId: string

  beforeAll(async () => {
    files = await startMediaServer()
    t = await startSimulatedGateway({ config: { allowPrivateAddresses: true } })
    t.sim.addContact(CONTACT)
    t.sim.addContact(FRIEND)
    sessionId = await t.pairByQr('forwarder', ACCOUNT)
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await files.close()
  })

  const received = (messageId: string, phone: string) => t.sim.contact(phone).waitForMessage((m) => m.id === messageId)
  const forward = (messageId: string, body: Record<string, unknown> = { sessionId, phone: FRIEND }, key?: string) =>
    t.post(`/v1/message/${encodeURIComponent(messageId)}/forward`, body, { key })

  it('forwards a text the session sent: a new record, the friend sees it marked forwarded', async () => {
    const sent = await t.post('/v1/message/text', { sessionId, phone: CONTACT, message: 'pass it on' })
    expect(sent.status).toBe(200)
    await t.waitForRecord(sessionId, sent.body.messageId, (r) => r.status !== 'pending')

    const { status, body } = await forward(sent.body.messageId)
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body).toMatchObject({
      sessionId,
      phone: FRIEND,
      direction: 'outbound',
      type: 'text',
      content: { text: 'pass it on', forwarded: true },
    })
    expect(body.messageId).not.toBe(sent.body.messageId)
    const inbox = await received(body.messageId, FRIEND)
    expect(inbox.message.extendedTextMessage).toMatchObject({
      text: 'pass it on',
      contextInfo: { isForwarded: true, forwardingScore: 1 },
    })
    expect(t.sim.violations()).toEqual([])
  })

  it('forwards a text the contact sent (`to` accepted), and a forward of a forward counts up', async () => {
    const id = await t.sim.contact(CONTACT).send({ text: 'from the contact' })
    await t.waitForRecord(sessionId, id, (r) => r?.messageId === id)
    const first = await forward(id, { sessionId, to: FRIEND })
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.body.content).toMatchObject({ text: 'from the contact', forwarded: true })
    expect((await received(first.body.messageId, FRIEND)).message.extendedTextMessage?.contextInfo).toMatchObject({
      isForwarded: true,
      forwardingScore: 1,
    })
    await t.waitForRecord(sessionId, first.body.messageId, (r) => r.status !== 'pending')

    const again = await forward(first.body.messageId, { sessionId, phone: CONTACT })
    expect(again.status, JSON.stringify(again.body)).toBe(200)
    expect((await received(again.body.messageId, CONTACT)).message.extendedTextMessage?.contextInfo).toMatchObject({
      isForwarded: true,
      forwardingScore: 2,
    })
    expect(t.sim.violations()).toEqual([])
  })

  it('forwards an image the session sent without fetching or uploading it again: same file, same key', async () => {
    const photo = fixture('jpeg').bytes
    files.serve('photo.jpg', photo, 'image/jpeg')
    const sent = await t.post('/v1/message/image', {
      sessionId,
      phone: CONTACT,
      imageUrl: files.url('photo.jpg'),
      caption: 'look',
    })
    expect(sent.status, JSON.stringify(sent.body)).toBe(200)
    const original = (await received(sent.body.messageId, CONTACT)).message.imageMessage!
    await t.waitForRecord(sessionId, sent.body.messageId, (r) => r.status !== 'pending')
    const uploads = t.sim.mediaUploads().length
    const fetches = files.requests.length

    const { status, body } = await forward(sent.body.messageId)
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body).toMatchObject({
      type: 'image',
      content: { caption: 'look', mimetype: 'image/jpeg', forwarded: true },
    })
    const image = (await received(body.messageId, FRIEND)).message.imageMessage!
    expect(image.contextInfo).toMatchObject({ isForwarded: true, forwardingScore: 1 })
    expect(image.directPath).toBe(original.directPath)
    expect(Buffer.from(image.mediaKey!)).toEqual(Buffer.from(original.mediaKey!))
    expect(image.caption).toBe('look')
    expect(sha256((await t.sim.contact(FRIEND).media(body.messageId)).bytes)).toBe(sha256(photo))
    expect(t.sim.mediaUploads()).toHaveLength(uploads)
    expect(files.requests).toHaveLength(fetches)
    expect(t.sim.violations()).toEqual([])
  })

  it('forwards an image the contact sent: the friend downloads it from the contact’s upload', async () => {
    const photo = fixture('png')
    const id = await t.sim.contact(CONTACT).send({ image: photo.bytes, mimetype: photo.mimetype, caption: 'mine' })
    await t.waitForRecord(sessionId, id, (r) => r?.messageId === id)
    const uploads = t.sim.mediaUploads().length
    const before = t.sim.contact(CONTACT).sentMedia(id)

    const { status, body } = await forward(id)
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body).toMatchObject({
      type: 'image',
      content: { caption: 'mine', mimetype: 'image/png', forwarded: true },
    })
    expect(body.content.media).toBeUndefined()
    const image = (await received(body.messageId, FRIEND)).message.imageMessage!
    expect(image.directPath).toBe(before.directPath)
    expect(image.contextInfo).toMatchObject({ isForwarded: true, forwardingScore: 1 })
    expect(sha256((await t.sim.contact(FRIEND).media(body.messageId)).bytes)).toBe(sha256(photo.bytes))
    expect(t.sim.contact(CONTACT).sentMedia(id).downloads).toBe(before.downloads + 1) // the friend's, not ours
    expect(t.sim.mediaUploads()).toHaveLength(uploads)
    expect(t.sim.violations()).toEqual([])
  })

  it('forwards a contact’s image into a group: every member gets it marked forwarded, from the same upload', async () => {
    const photo = fixture('jpeg')
    const id = await t.sim.contact(CONTACT).send({ image: photo.bytes, mimetype: photo.mimetype })
    await t.waitForRecord(sessionId, id, (r) => r?.messageId === id)
    const group = t.sim.createGroup('Forwards', [ACCOUNT, CONTACT, FRIEND], ACCOUNT)
    const { status, body } = await forward(id, { sessionId, phone: group.jid })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body).toMatchObject({ phone: group.jid, type: 'image', content: { forwarded: true } })
    for (const member of [CONTACT, FRIEND]) {
      const entry = await received(body.messageId, member)
      expect(entry.chat).toBe(group.jid)
      expect(entry.message.imageMessage).toMatchObject({
        directPath: t.sim.contact(CONTACT).sentMedia(id).directPath,
        contextInfo: { isForwarded: true, forwardingScore: 1 },
      })
      expect(sha256((await t.sim.contact(member).media(body.messageId)).bytes)).toBe(sha256(photo.bytes))
    }
    expect(t.sim.violations()).toEqual([])
  })

  it('answers 404 for an id the session does not have, and for another workspace’s message or session', async () => {
    const unknown = await forward('3EB0NOSUCHMESSAGE')
    expect(unknown.status).toBe(404)
    expect(unknown.body.error).toBe('not_found')

    const sent = await t.post('/v1/message/text', { sessionId, phone: CONTACT, message: 'ours only' })
    const other = t.addWorkspace('other-forwarder')
    // The other workspace naming our session: no such session for it.
    const viaOurSession = await forward(sent.body.messageId, { sessionId, phone: FRIEND }, other.key)
    expect(viaOurSession.status).toBe(404)
    expect(
      t.sim
        .contact(FRIEND)
        .inbox()
        .some((m) => m.message.extendedTextMessage?.text === 'ours only'),
    ).toBe(false)
  })

  it('refuses a deleted message and a poll with 409 naming why, sending and recording nothing', async () => {
    const sent = await t.post('/v1/message/text', { sessionId, phone: CONTACT, message: 'soon gone' })
    await t.waitForRecord(sessionId, sent.body.messageId, (r) => r.status !== 'pending')
    const deleted = await t.post('/v1/message/delete', { sessionId, phone: CONTACT, messageId: sent.body.messageId })
    expect(deleted.status).toBe(200)
    const refused = await forward(sent.body.messageId)
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({
      error: 'message_not_editable',
      details: { messageId: sent.body.messageId, status: 'deleted' },
    })
    expect(refused.body.message).toMatch(/cannot be forwarded: it was deleted/)

    const poll = await t.post('/v1/message/poll', { sessionId, phone: CONTACT, question: 'Q?', options: ['A', 'B'] })
    expect(poll.status).toBe(200)
    const notPoll = await forward(poll.body.messageId)
    expect(notPoll.status).toBe(409)
    expect(notPoll.body.message).toMatch(/a poll message is not forwardable/)

    const friendInbox = t.sim.contact(FRIEND).inbox()
    expect(friendInbox.some((m) => m.message.extendedTextMessage?.text === 'soon gone')).toBe(false)
    expect(friendInbox.some((m) => m.message.pollCreationMessageV3 || m.message.pollCreationMessage)).toBe(false)
  })

  it('takes an Idempotency-Key: a retry answers the same record and sends nothing more', async () => {
    const sent = await t.post('/v1/message/text', { sessionId, phone: CONTACT, message: 'once only' })
    await t.waitForRecord(sessionId, sent.body.messageId, (r) => r.status !== 'pending')
    const headers = { 'idempotency-key': 'forward-once' }
    const path = `/v1/message/${sent.body.messageId}/forward`
    const first = await t.post(path, { sessionId, phone: FRIEND }, { headers })
    const retry = await t.post(path, { sessionId, phone: FRIEND }, { headers })
    expect(first.status).toBe(200)
    expect(retry.body.messageId).toBe(first.body.messageId)
    await received(first.body.messageId, FRIEND)
    const copies = t.sim
      .contact(FRIEND)
      .inbox()
      .filter((m) => m.message.extendedTextMessage?.text === 'once only')
    expect(copies).toHaveLength(1)
  })
})
