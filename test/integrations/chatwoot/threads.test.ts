import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { pollUntil } from '../../support/poll'
import { type ChatwootRig, startChatwootRig } from './support/rig'

const ACCOUNT = '15550035001'
const CARLA = '15551235001'
const DIEGO = '15551235002'
const EMMA = '15551235003'

/**
 * Which Chatwoot contact and conversation a WhatsApp message lands in: one contact per person
 * whether they write by number or by LID, one conversation per group with each sender named,
 * resolved conversations reopened or replaced as configured, and a contact's own edits and
 * deletions reflected.
 */
describe('Chatwoot threads', () => {
  let rig: ChatwootRig
  let sessionId: string
  const send = (from: string, text: string, options: Record<string, unknown> = {}) =>
    rig.t.sim.contact(from).send({ text }, { to: ACCOUNT, ...options })

  beforeAll(async () => {
    rig = await startChatwootRig()
    for (const phone of [CARLA, DIEGO, EMMA]) rig.t.sim.addContact(phone)
    sessionId = (await rig.t.linkSession({ phone: ACCOUNT, connect: { sessionName: 'threads' } })).sessionId
    await rig.enable(sessionId)
  }, 60_000)
  afterEach(() => expect(rig.cw.violations).toEqual([]))
  afterAll(() => rig?.close())

  it('keeps one contact and one conversation for a person writing by number, then by LID', async () => {
    await send(CARLA, 'by number')
    const first = await rig.waitForMessage('by number')
    await send(CARLA, 'by lid', { fromLid: true })
    const second = await rig.waitForMessage('by lid')
    expect(second.conversationId).toBe(first.conversationId)
    expect(rig.cw.contacts.filter((c) => c.phoneNumber === `+${CARLA}`)).toHaveLength(1)
    expect(rig.cw.contacts.filter((c) => c.name?.includes(CARLA) || c.phoneNumber === `+${CARLA}`)).toHaveLength(1)
  })

  it('puts a group in one conversation named after it, each message led by its sender', async () => {
    const created = await rig.t.post('/v1/group/create', {
      sessionId,
      subject: 'Project X',
      participants: [DIEGO, EMMA],
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const group = created.body.group.groupId as string
    await rig.t.sim.contact(DIEGO).send({ text: 'kick-off at 10' }, { group })
    await rig.t.sim.contact(EMMA).send({ text: 'see you there' }, { group })
    const a = await rig.waitForMessage('kick-off at 10')
    const b = await rig.waitForMessage('see you there')
    expect(b.conversationId).toBe(a.conversationId)
    const contact = rig.cw.contacts.find(
      (c) => c.id === rig.cw.conversations.find((v) => v.id === a.conversationId)!.contactId,
    )!
    expect(contact.name).toBe('Project X')
    expect(a.content).toMatch(new RegExp(`^\\*\\*.*${DIEGO}.*:\\*\\*\\nkick-off at 10$`))
    expect(b.content).toMatch(new RegExp(`^\\*\\*.*${EMMA}.*:\\*\\*\\nsee you there$`))
  })

  it('reflects a contact’s edit and deletion', async () => {
    const id = await send(EMMA, 'meet at 5')
    const original = await rig.waitForMessage('meet at 5')
    await rig.t.sim.contact(EMMA).edit(id, 'meet at 6')
    const edited = await rig.waitForMessage('meet at 6')
    expect(edited.content).toBe('✏️ Edited: meet at 6')
    expect(edited.conversationId).toBe(original.conversationId)
    await rig.t.sim.contact(EMMA).revoke(id)
    await pollUntil(
      () => rig.cw.messages.find((m) => m.id === original.id)!,
      (message) => message.contentAttributes.deleted === true,
      { what: 'the Chatwoot message to be deleted' },
    )
  })

  it('gives each of 50 contacts writing at once their own contact and conversation', async () => {
    const crowd = Array.from({ length: 50 }, (_, i) => `1555123600${String(i).padStart(2, '0')}`)
    for (const phone of crowd) rig.t.sim.addContact(phone)
    await Promise.all(crowd.map((phone) => send(phone, `hello from ${phone}`)))
    await pollUntil(
      () => rig.cw.messages.filter((m) => m.content?.startsWith('hello from ')).length,
      (count) => count >= crowd.length,
      { timeoutMs: 30_000, what: 'all 50 first messages' },
    )
    for (const phone of crowd) {
      const contacts = rig.cw.contacts.filter((c) => c.phoneNumber === `+${phone}`)
      expect(contacts, phone).toHaveLength(1)
      const conversations = rig.cw.conversations.filter((c) => c.contactId === contacts[0]!.id)
      expect(conversations, phone).toHaveLength(1)
      const messages = rig.messagesIn(conversations[0]!.id)
      expect(messages.map((m) => m.content)).toEqual([`hello from ${phone}`])
    }
  })

  it('reopens a resolved conversation (reopenResolved), or starts a new one when told not to', async () => {
    await send(DIEGO, 'first question')
    const first = await rig.waitForMessage('first question')
    rig.cw.resolve(first.conversationId)
    await send(DIEGO, 'one more thing')
    const reopened = await rig.waitForMessage('one more thing')
    expect(reopened.conversationId).toBe(first.conversationId)
    expect(rig.cw.conversations.find((c) => c.id === first.conversationId)!.status).toBe('open')

    await rig.enable(sessionId, { reopenResolved: false })
    rig.cw.resolve(first.conversationId)
    await send(DIEGO, 'a new topic')
    const fresh = await rig.waitForMessage('a new topic')
    expect(fresh.conversationId).not.toBe(first.conversationId)
    expect(rig.cw.contacts.filter((c) => c.phoneNumber === `+${DIEGO}`)).toHaveLength(1)
  })
})
