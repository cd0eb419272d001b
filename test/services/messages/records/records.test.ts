import { join } from 'node:path'
import { proto } from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storedPayload } from '../../../../src/services/messages/records/records'
import { queryFile } from '../../../support/sqlite-file'
import { tempDir } from '../../../support/temp-dir'
import { startSimulatedGateway, type SimulatedGateway } from '../../../support/simulated-gateway'

const ACCOUNT = '15550012001'
const CONTACT = '15551232001'
const OTHER = '15551232002'

describe('message records: delivery status, edits, deletes and reading them back', () => {
  let t: SimulatedGateway
  let sessionId: string

  beforeAll(async () => {
    t = await startSimulatedGateway()
    t.sim.addContact(CONTACT)
    t.sim.addContact(OTHER)
    sessionId = await t.pairByQr('records', ACCOUNT)
  }, 60_000)
  afterAll(() => t.close())

  const sendText = async (message: string, phone = CONTACT) => {
    const { status, body } = await t.post('/v1/message/text', { sessionId, phone, message })
    expect(status).toBe(200)
    await t.sim.contact(phone).waitForMessage((m) => m.id === body.messageId)
    return body
  }
  /** A later message's receipt, once recorded, proves every earlier receipt was processed. */
  const receiptsSettled = async (text: string, receipt: 'delivered' | 'read') => {
    const marker = await sendText(text)
    t.sim.contact(CONTACT).receipt(marker.messageId, receipt)
    await t.waitForRecord(sessionId, marker.messageId, (r) => r.status === receipt)
  }
  const statusOf = (messageId: string) =>
    queryFile<{ status: string }>(t.databasePath, 'SELECT status FROM messages WHERE id = ?', messageId)[0]?.status

  it('moves pending → sent on the server ack, then follows receipts', async () => {
    const sent = await sendText('track me')
    await t.waitForRecord(sessionId, sent.messageId, (r) => r.status === 'sent')
    t.sim.contact(CONTACT).receipt(sent.messageId, 'delivered')
    await t.waitForRecord(sessionId, sent.messageId, (r) => r.status === 'delivered')
    t.sim.contact(CONTACT).receipt(sent.messageId, 'read')
    const read = await t.waitForRecord(sessionId, sent.messageId, (r) => r.status === 'read')
    expect(read.updatedAt >= read.createdAt).toBe(true)
  })

  it('never moves backwards when receipts arrive out of order', async () => {
    const sent = await sendText('out of order')
    t.sim.contact(CONTACT).receipt(sent.messageId, 'read')
    await t.waitForRecord(sessionId, sent.messageId, (r) => r.status === 'read')
    t.sim.contact(CONTACT).receipt(sent.messageId, 'delivered')
    await receiptsSettled('marker', 'delivered')
    expect(statusOf(sent.messageId)).toBe('read')
  })

  it('edits its own text: the contact gets the edit protocol message and the record shows the new text', async () => {
    const sent = await sendText('first draft')
    const { status, body } = await t.post('/v1/message/edit', {
      sessionId,
      phone: CONTACT,
      messageId: sent.messageId,
      newMessage: 'final text',
    })
    expect(status).toBe(200)
    expect(body).toMatchObject({ messageId: sent.messageId, type: 'text', content: { text: 'final text' } })
    expect(body.editedAt).not.toBeNull()
    const edit = await t.sim
      .contact(CONTACT)
      .waitForMessage((m) => m.stanza.edit === '1' && m.message.protocolMessage?.key?.id === sent.messageId)
    const edited = edit.message.protocolMessage?.editedMessage
    expect(edited?.conversation ?? edited?.extendedTextMessage?.text).toBe('final text')
    expect((await t.get(`/v1/message/${sent.messageId}?sessionId=${sessionId}`)).body.content.text).toBe('final text')
  })

  it('accepts the SDK’s id and to for edits, and refuses edits it cannot make', async () => {
    const sent = await sendText('alias edit')
    expect(
      (await t.post('/v1/message/edit', { sessionId, to: CONTACT, id: sent.messageId, newMessage: 'via alias' }))
        .status,
    ).toBe(200)
    const unknown = await t.post('/v1/message/edit', { sessionId, phone: CONTACT, messageId: 'NOPE', newMessage: 'x' })
    expect(unknown.status).toBe(404)
    const wrongChat = await t.post('/v1/message/edit', {
      sessionId,
      phone: OTHER,
      messageId: sent.messageId,
      newMessage: 'x',
    })
    expect(wrongChat.status).toBe(404)
    const location = await t.post('/v1/message/location', { sessionId, phone: CONTACT, latitude: 1, longitude: 2 })
    const notText = await t.post('/v1/message/edit', {
      sessionId,
      phone: CONTACT,
      messageId: location.body.messageId,
      newMessage: 'x',
    })
    expect(notText.status).toBe(409)
    expect(notText.body.error).toBe('message_not_editable')
  })

  it('deletes for everyone: the contact gets the revoke and the record becomes deleted, once', async () => {
    const sent = await sendText('regrettable')
    const { status, body } = await t.post('/v1/message/delete', {
      sessionId,
      phone: CONTACT,
      messageId: sent.messageId,
    })
    expect(status).toBe(200)
    expect(body).toEqual({ success: true, message: expect.any(String) })
    const revoke = await t.sim
      .contact(CONTACT)
      .waitForMessage((m) => m.stanza.edit === '7' && m.message.protocolMessage?.key?.id === sent.messageId)
    expect(revoke.message.protocolMessage?.type).toBe(0) // REVOKE
    expect((await t.get(`/v1/message/${sent.messageId}?sessionId=${sessionId}`)).body.status).toBe('deleted')
    const again = await t.post('/v1/message/delete', { sessionId, phone: CONTACT, id: sent.messageId })
    expect(again.body.success).toBe(true)
    const revokes = t.sim
      .contact(CONTACT)
      .inbox()
      .filter((m) => m.message.protocolMessage?.key?.id === sent.messageId && m.stanza.edit === '7')
    expect(revokes).toHaveLength(1)
    // A deleted message can no longer be edited; receipts no longer move it.
    expect(
      (await t.post('/v1/message/edit', { sessionId, phone: CONTACT, messageId: sent.messageId, newMessage: 'x' }))
        .status,
    ).toBe(409)
    t.sim.contact(CONTACT).receipt(sent.messageId, 'read')
    await receiptsSettled('marker 2', 'read')
    expect(statusOf(sent.messageId)).toBe('deleted')
  })

  it('lists records newest first, filtered by chat and direction, a page at a time', async () => {
    const a = await sendText('page one', OTHER)
    const b = await sendText('page two', OTHER)
    const c = await sendText('page three', OTHER)
    const first = await t.get(`/v1/message/all?sessionId=${sessionId}&phone=${OTHER}&limit=2`)
    expect(first.status).toBe(200)
    expect(first.body.messages.map((m: any) => m.messageId)).toEqual([c.messageId, b.messageId])
    expect(first.body.nextCursor).toEqual(expect.any(String))
    const second = await t.get(
      `/v1/message/all?sessionId=${sessionId}&phone=${OTHER}&limit=2&cursor=${first.body.nextCursor}`,
    )
    expect(second.body.messages.map((m: any) => m.messageId)).toEqual([a.messageId])
    expect(second.body.nextCursor).toBeNull()
    const inbound = await t.get(`/v1/message/all?sessionId=${sessionId}&direction=inbound`)
    expect(inbound.body.messages.every((m: any) => m.direction === 'inbound')).toBe(true)
    expect((await t.get(`/v1/message/all?sessionId=${sessionId}&cursor=garbage`)).status).toBe(400)
  })

  it('keeps the sent proto, which answers Baileys’ getMessage when a device asks for a retry', async () => {
    const sent = await sendText('retry me')
    const payload = storedPayload(t.gateway.context.db, sessionId, sent.messageId)
    const message = proto.Message.decode(payload!)
    expect(message.conversation ?? message.extendedTextMessage?.text).toBe('retry me')
  })

  it('hides records of other workspaces’ sessions (404) and never shows the stored payload', async () => {
    const sent = await sendText('private')
    const other = t.addWorkspace('intruder')
    expect((await t.get(`/v1/message/${sent.messageId}?sessionId=${sessionId}`, other.key)).status).toBe(404)
    expect((await t.get(`/v1/message/all?sessionId=${sessionId}`, other.key)).status).toBe(404)
    expect(
      (await t.post('/v1/message/text', { sessionId, phone: CONTACT, message: 'x' }, { key: other.key })).status,
    ).toBe(404)
    const mine = await t.get(`/v1/message/${sent.messageId}?sessionId=${sessionId}`)
    expect(mine.body).not.toHaveProperty('payload')
    expect(JSON.stringify(mine.body)).not.toMatch(/mediaKey|payload/)
  })
})

describe('a send WhatsApp refuses', () => {
  let t: SimulatedGateway
  let sessionId: string
  beforeAll(async () => {
    t = await startSimulatedGateway()
    t.sim.addContact('15551232101')
    t.sim.addContact('15551232102')
    sessionId = await t.pairByQr('restricted', '15550012101')
  }, 60_000)
  afterAll(() => t.close())

  it('marks the record failed with new_chat_limit when a restricted account opens a new chat (463)', async () => {
    const known = await t.post('/v1/message/text', { sessionId, phone: '15551232101', message: 'existing chat' })
    await t.waitForRecord(sessionId, known.body.messageId, (r) => r.status === 'sent')
    t.sim.account('15550012101').fault('restrict-new-chats')
    const refused = await t.post('/v1/message/text', { sessionId, phone: '15551232102', message: 'new chat' })
    expect(refused.status).toBe(200) // handed over; WhatsApp's refusal comes back as the ack
    const failed = await t.waitForRecord(sessionId, refused.body.messageId, (r) => r.status === 'failed')
    expect(failed.statusReason).toBe('new_chat_limit')
    const allowed = await t.post('/v1/message/text', { sessionId, phone: '15551232101', message: 'still fine' })
    await t.waitForRecord(sessionId, allowed.body.messageId, (r) => r.status === 'sent')
    expect(t.sim.contact('15551232102').inbox()).toEqual([])
  })
})

describe('retention', () => {
  it('deletes records older than MESSAGE_RETENTION_DAYS when the gateway starts (and hourly after)', async () => {
    let now = Date.now() - 40 * 24 * 60 * 60 * 1000
    const clock = { now: () => new Date(now) }
    const dir = tempDir()
    const databasePath = join(dir.path, 'gateway.db')
    const t = await startSimulatedGateway({ clock, config: { messageRetentionDays: 30 }, databasePath })
    try {
      t.sim.addContact('15551232201')
      const sessionId = await t.pairByQr('retention', '15550012201')
      const old = await t.post('/v1/message/text', { sessionId, phone: '15551232201', message: 'old' })
      now = Date.now()
      const fresh = await t.post('/v1/message/text', { sessionId, phone: '15551232201', message: 'fresh' })
      await t.stopGateway()
      const restarted = await startSimulatedGateway({
        clock,
        config: { messageRetentionDays: 30 },
        databasePath,
        reuse: { sim: t.sim, control: t.control },
      })
      try {
        const ids = queryFile<{ id: string }>(t.databasePath, 'SELECT id FROM messages').map((row) => row.id)
        expect(ids).toEqual([fresh.body.messageId])
        expect(ids).not.toContain(old.body.messageId)
      } finally {
        await restarted.stopGateway()
      }
    } finally {
      await t.control.stop()
      await t.sim.stop()
      dir.cleanup()
    }
  })
})
