import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pollUntil } from '../../support/poll'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import { setTimeout as sleep } from 'node:timers/promises'

const ACCOUNT = '15550019001'
const CONTACT = '15551239001'
const FRIEND = '15551239002'

/**
 * POST /v1/chat/read through Baileys to the simulator: the read receipts the account's client
 * sent (seen by the simulator, which checks they answer messages the contact really sent), the
 * records marked `read`, and what is refused without sending anything.
 */
describe('marking a chat read', () => {
  let t: SimulatedGateway
  let sessionId: string

  beforeAll(async () => {
    t = await startSimulatedGateway()
    t.sim.addContact(CONTACT)
    t.sim.addContact(FRIEND)
    sessionId = await t.pairByQr('reader', ACCOUNT)
  }, 60_000)
  afterAll(async () => {
    await t.close()
  })

  /** The contact writes; answers the message ids once the gateway recorded each. */
  const inbound = async (texts: string[], from = CONTACT, options: { group?: string } = {}) => {
    const ids: string[] = []
    for (const text of texts) ids.push(await t.sim.contact(from).send({ text }, { to: ACCOUNT, ...options }))
    for (const id of ids) await t.waitForRecord(sessionId, id, (record) => record?.status === 'received')
    return ids
  }
  const readReceipts = () =>
    t.sim
      .account(ACCOUNT)
      .receipts()
      .filter((r) => r.type === 'read' || r.type === 'read-self')
  const statusOf = async (id: string) =>
    (await t.get(`/v1/message/${encodeURIComponent(id)}?sessionId=${sessionId}`)).body.status

  it('sends one read receipt for every unread message of the chat and marks their records read', async () => {
    const ids = await inbound(['one', 'two', 'three'])
    const { status, body } = await t.post('/v1/chat/read', { sessionId, phone: '+1 555-123-9001' })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body).toEqual({ sessionId, phone: '+1 555-123-9001', messageIds: [...ids].reverse(), remaining: 0 })
    const receipt = await t.sim.account(ACCOUNT).waitForReceipt((r) => r.type === 'read' && r.ids.includes(ids[0]!))
    expect(receipt.to).toMatch(new RegExp(`^(${CONTACT}@s\\.whatsapp\\.net|\\d+@lid)$`))
    expect([...receipt.ids].sort()).toEqual([...ids].sort())
    for (const id of ids) expect(await statusOf(id)).toBe('read')

    // Nothing unread is left: nothing more is sent.
    const again = await t.post('/v1/chat/read', { sessionId, phone: CONTACT })
    expect(again.body).toMatchObject({ messageIds: [], remaining: 0 })
    await sleep(100)
    expect(readReceipts()).toHaveLength(1)
  })

  it('reads only the named messages; the others stay unread and are counted', async () => {
    const [first, second] = await inbound(['four', 'five'])
    const before = readReceipts().length
    const { status, body } = await t.post('/v1/chat/read', { sessionId, phone: CONTACT, messageIds: [second, second] })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body).toMatchObject({ messageIds: [second], remaining: 1 })
    await t.sim.account(ACCOUNT).waitForReceipt((r) => r.type === 'read' && r.ids.includes(second!))
    expect(
      readReceipts()
        .slice(before)
        .flatMap((r) => r.ids),
    ).toEqual([second])
    expect(await statusOf(second!)).toBe('read')
    expect(await statusOf(first!)).toBe('received')
  })

  it('is 404 for ids that are not inbound messages of this chat, sending and marking nothing', async () => {
    const [unread] = await inbound(['six'])
    const [friends] = await inbound(['from a friend'], FRIEND)
    const sent = await t.post('/v1/message/text', { sessionId, phone: CONTACT, message: 'ours' })
    const before = readReceipts().length
    for (const messageIds of [
      [unread, friends],
      [unread, sent.body.messageId],
      ['3AUNKNOWN0000000'],
      [unread, 'x'.repeat(128)],
    ]) {
      const { status, body } = await t.post('/v1/chat/read', { sessionId, phone: CONTACT, messageIds })
      expect([status, body.error], JSON.stringify(body)).toEqual([404, 'not_found'])
      expect(body.details.messageIds).not.toContain(unread)
    }
    await sleep(100)
    expect(readReceipts().length).toBe(before)
    expect(await statusOf(unread!)).toBe('received')
    expect(await statusOf(friends!)).toBe('received')
  })

  it('is 400 for malformed bodies and 404 for another workspace’s session', async () => {
    for (const body of [
      { sessionId },
      { sessionId, phone: 'nobody' },
      { sessionId, phone: CONTACT, messageIds: [] },
      { sessionId, phone: CONTACT, messageIds: Array.from({ length: 101 }, (_, i) => `id${i}`) },
      { sessionId, phone: CONTACT, messageIds: [''] },
      { sessionId, phone: CONTACT, extra: true },
    ]) {
      const answer = await t.post('/v1/chat/read', body)
      expect([answer.status, answer.body.error], JSON.stringify(body)).toEqual([400, 'validation_error'])
    }
    const other = t.addWorkspace('other-reader')
    const theirs = await t.post('/v1/chat/read', { sessionId, phone: CONTACT }, { key: other.key })
    const none = await t.post('/v1/chat/read', { sessionId: 'ses_none', phone: CONTACT })
    expect([theirs.status, theirs.body.error]).toEqual([404, 'not_found'])
    expect(theirs.body.message).toBe(none.body.message.replace('ses_none', sessionId))
  })

  it('reads a group: the receipt names the group and the author', async () => {
    const group = t.sim.createGroup('Readers', [ACCOUNT, CONTACT, FRIEND], ACCOUNT)
    const [id] = await inbound(['hello group'], FRIEND, { group: group.jid })
    const { status, body } = await t.post('/v1/chat/read', { sessionId, phone: group.jid })
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body.messageIds).toEqual([id])
    const receipt = await t.sim.account(ACCOUNT).waitForReceipt((r) => r.type === 'read' && r.ids.includes(id!))
    expect(receipt).toMatchObject({ to: group.jid, participant: `${t.sim.contact(FRIEND).lid}@lid` })
    expect(await statusOf(id!)).toBe('read')
  })

  it('sends read-self when the account hides read receipts, and still marks the records read', async () => {
    t.sim.account(ACCOUNT).setReadReceipts('none')
    const logins = t.sim.account(ACCOUNT).stats().logins
    t.sim.account(ACCOUNT).fault('drop') // the privacy setting is asked once per connection
    t.sim.account(ACCOUNT).clearFaults()
    await pollUntil(
      () => t.sim.account(ACCOUNT).stats().logins > logins && t.sim.account(ACCOUNT).online,
      (online) => online,
      { timeoutMs: 10_000, what: 'the session logged in again' },
    )
    await t.waitForStatus(sessionId, 'connected')
    const [id] = await inbound(['private'])
    const { status } = await t.post('/v1/chat/read', { sessionId, phone: CONTACT, messageIds: [id] })
    expect(status).toBe(200)
    const receipt = await t.sim.account(ACCOUNT).waitForReceipt((r) => r.ids.includes(id!) && r.type.startsWith('read'))
    expect(receipt.type).toBe('read-self')
    expect(await statusOf(id!)).toBe('read')
    t.sim.account(ACCOUNT).setReadReceipts('all')
  })

  it('left the simulator no protocol violations', () => {
    expect(t.sim.violations()).toEqual([])
  })
})
