import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulatedGateway, type SimulatedGateway } from '../../../support/simulated-gateway'

const ACCOUNT = '15550013001'
const PN_CONTACT = '15551233001'
const LID_CONTACT = '15551233002'

/** Messages contacts send to the session's account, as records with phone and LID resolved. */
describe('inbound messages', () => {
  let t: SimulatedGateway
  let sessionId: string
  let lidOf: Record<string, string>

  beforeAll(async () => {
    t = await startSimulatedGateway()
    lidOf = { [PN_CONTACT]: t.sim.addContact(PN_CONTACT).lid, [LID_CONTACT]: t.sim.addContact(LID_CONTACT).lid }
    sessionId = await t.pairByQr('inbox', ACCOUNT)
  }, 60_000)
  afterAll(() => t.close())

  const record = (messageId: string) => t.waitForRecord(sessionId, messageId, (r) => r?.messageId === messageId)

  it('stores a text from a phone-number chat with the sender’s phone and LID', async () => {
    const id = await t.sim.contact(PN_CONTACT).send({ text: 'hi there' }, { to: ACCOUNT })
    const stored = await record(id)
    expect(stored).toMatchObject({
      direction: 'inbound',
      status: 'received',
      type: 'text',
      phone: PN_CONTACT,
      lid: `${lidOf[PN_CONTACT]}@lid`,
      content: { text: 'hi there' },
    })
  })

  it('resolves the phone of a LID-addressed sender, and a reply by phone or by LID reaches them', async () => {
    const id = await t.sim.contact(LID_CONTACT).send({ text: 'from my lid' }, { to: ACCOUNT, fromLid: true })
    const stored = await record(id)
    expect(stored).toMatchObject({
      phone: LID_CONTACT,
      lid: `${lidOf[LID_CONTACT]}@lid`,
      content: { text: 'from my lid' },
    })

    const byPhone = await t.post('/v1/message/text', {
      sessionId,
      phone: LID_CONTACT,
      message: 'reply by phone',
      quoteId: id,
    })
    expect(byPhone.status).toBe(200)
    const quoted = await t.sim.contact(LID_CONTACT).waitForMessage((m) => m.id === byPhone.body.messageId)
    expect(quoted.message.extendedTextMessage?.contextInfo?.stanzaId).toBe(id)

    const byLid = await t.post('/v1/message/text', {
      sessionId,
      phone: `${lidOf[LID_CONTACT]}@lid`,
      message: 'reply by lid',
    })
    expect(byLid.status).toBe(200)
    // One LID form everywhere, and the number the account learned from the sender filled in.
    expect(byLid.body).toMatchObject({ lid: `${lidOf[LID_CONTACT]}@lid`, phone: LID_CONTACT })
    const entry = await t.sim.contact(LID_CONTACT).waitForMessage((m) => m.id === byLid.body.messageId)
    expect(entry.message.conversation ?? entry.message.extendedTextMessage?.text).toBe('reply by lid')
    expect(t.sim.violations()).toEqual([])
  })

  it('fills the number of a LID it learned from a contact check, and the LID of a number it sends to', async () => {
    const contact = '15551233003'
    const { lid } = t.sim.addContact(contact)
    const checked = await t.post('/v1/contact/check', { sessionId, phones: [contact] })
    expect(checked.body.results[0]).toMatchObject({ exists: true, lid: `${lid}@lid` })
    const byLid = await t.post('/v1/message/text', { sessionId, phone: `${lid}@lid`, message: 'by lid' })
    expect(byLid.body).toMatchObject({ phone: contact, lid: `${lid}@lid` })
    const byPhone = await t.post('/v1/message/text', { sessionId, phone: PN_CONTACT, message: 'by phone' })
    expect(byPhone.body).toMatchObject({ phone: PN_CONTACT, lid: `${lidOf[PN_CONTACT]}@lid` })
  })

  it('refuses a number with no WhatsApp account, a LID pasted without @lid among them: 404, nothing sent', async () => {
    const bareLid = lidOf[LID_CONTACT]!
    const before = t.sim.contact(LID_CONTACT).inbox().length
    const sent = await t.post('/v1/message/text', { sessionId, phone: bareLid, message: 'lost?' })
    expect(sent.status).toBe(404)
    expect(sent.body.message).toContain(`send it as "${bareLid}@lid"`)
    const unknown = await t.post('/v1/message/text', { sessionId, phone: '15550000000', message: 'anyone?' })
    expect(unknown).toMatchObject({ status: 404, body: { error: 'not_found', details: { field: 'phone' } } })
    expect(unknown.body.message).not.toContain('@lid')
    const listed = await t.get(`/v1/message/all?sessionId=${sessionId}&phone=${bareLid}`)
    expect(listed.body.messages).toEqual([])
    expect(t.sim.contact(LID_CONTACT).inbox()).toHaveLength(before)
  })

  it('keeps the quoted id of a reply and the coordinates of a location', async () => {
    const sent = await t.post('/v1/message/text', { sessionId, phone: PN_CONTACT, message: 'question?' })
    await t.sim.contact(PN_CONTACT).waitForMessage((m) => m.id === sent.body.messageId)
    const replyId = await t.sim
      .contact(PN_CONTACT)
      .send({ text: 'answer', quoteId: sent.body.messageId }, { to: ACCOUNT })
    expect(await record(replyId)).toMatchObject({ quoteId: sent.body.messageId, content: { text: 'answer' } })
    const locationId = await t.sim
      .contact(PN_CONTACT)
      .send({ location: { latitude: 51.5, longitude: -0.12 } }, { to: ACCOUNT })
    expect(await record(locationId)).toMatchObject({ type: 'location', content: { latitude: 51.5, longitude: -0.12 } })
  })

  it('follows the sender’s edits and revokes', async () => {
    const id = await t.sim.contact(PN_CONTACT).send({ text: 'tpyo' }, { to: ACCOUNT })
    await record(id)
    await t.sim.contact(PN_CONTACT).edit(id, 'typo', { to: ACCOUNT })
    const edited = await t.waitForRecord(sessionId, id, (r) => r.content.text === 'typo')
    expect(edited.editedAt).not.toBeNull()
    await t.sim.contact(PN_CONTACT).revoke(id, { to: ACCOUNT })
    const revoked = await t.waitForRecord(sessionId, id, (r) => r.status === 'deleted')
    expect(revoked.statusReason).toBe('revoked_by_sender')
  })

  it('refuses to delete or edit someone else’s message (409)', async () => {
    const id = await t.sim.contact(PN_CONTACT).send({ text: 'theirs' }, { to: ACCOUNT })
    await record(id)
    const del = await t.post('/v1/message/delete', { sessionId, phone: PN_CONTACT, messageId: id })
    expect(del.status).toBe(409)
    expect(del.body.error).toBe('message_not_editable')
    expect(
      (await t.post('/v1/message/edit', { sessionId, phone: PN_CONTACT, messageId: id, newMessage: 'x' })).status,
    ).toBe(409)
  })

  it('keeps listening after a reconnect: the new socket gets every listener again', async () => {
    t.sim.account(ACCOUNT).fault('drop')
    await t.waitForStatus(sessionId, 'connecting')
    await t.waitForStatus(sessionId, 'connected')
    const id = await t.sim.contact(PN_CONTACT).send({ text: 'after the reconnect' }, { to: ACCOUNT })
    expect(await record(id)).toMatchObject({ content: { text: 'after the reconnect' } })
    const sent = await t.post('/v1/message/text', { sessionId, phone: PN_CONTACT, message: 'still tracked' })
    await t.sim.contact(PN_CONTACT).waitForMessage((m) => m.id === sent.body.messageId)
    t.sim.contact(PN_CONTACT).receipt(sent.body.messageId, 'read')
    await t.waitForRecord(sessionId, sent.body.messageId, (r) => r.status === 'read')
  })

  it('lists inbound records by chat', async () => {
    const list = await t.get(`/v1/message/all?sessionId=${sessionId}&phone=${PN_CONTACT}&direction=inbound`)
    expect(list.status).toBe(200)
    expect(list.body.messages.length).toBeGreaterThanOrEqual(4)
    expect(list.body.messages.every((m: any) => m.direction === 'inbound' && m.phone === PN_CONTACT)).toBe(true)
  })
})
