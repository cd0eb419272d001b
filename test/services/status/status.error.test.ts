import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryFile } from '../../support/sqlite-file'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

const ACCOUNT = '15550046101'
const CUSTOMER = '15551461001'

/** What a client can get wrong about statuses: each refused with a clear 4xx, nothing recorded or sent. */
describe('statuses refused', () => {
  let t: SimulatedGateway
  let sessionId: string

  const records = () =>
    queryFile<{ n: number }>(t.databasePath, 'SELECT count(*) AS n FROM messages WHERE session_id = ?', sessionId)[0]!.n

  beforeAll(async () => {
    t = await startSimulatedGateway()
    t.sim.addContact(CUSTOMER)
    sessionId = await t.pairByQr('fresh', ACCOUNT)
  }, 60_000)
  afterAll(() => t.close())

  it('refuses a status to nobody: no contacts known yet, or only the account itself', async () => {
    const none = await t.post('/v1/status/text', { sessionId, text: 'hello?' })
    expect(none.status).toBe(400)
    expect(none.body.error).toBe('validation_error')
    expect(JSON.stringify(none.body.details)).toContain('knows no contacts yet')
    const self = await t.post('/v1/status/text', { sessionId, text: 'me', contacts: [ACCOUNT] })
    expect(self.status).toBe(400)
    expect(JSON.stringify(self.body.details)).toContain('own number')
    expect(records()).toBe(0)
    expect(t.sim.violations()).toEqual([])
  })

  it.each([
    ['an empty list', { text: 'x', contacts: [] }],
    ['a list past 1,000', { text: 'x', contacts: Array.from({ length: 1_001 }, (_, i) => `1555${1_000_000 + i}`) }],
    ['something that is no number', { text: 'x', contacts: ['not a phone'] }],
    ['a text past 700 characters', { text: 'a'.repeat(701), contacts: [CUSTOMER] }],
    ['a blank text', { text: '   ', contacts: [CUSTOMER] }],
    ['a colour that is no #RRGGBB', { text: 'x', backgroundColor: 'red', contacts: [CUSTOMER] }],
    ['a font WhatsApp lacks', { text: 'x', font: 3, contacts: [CUSTOMER] }],
    ['a field statuses do not take', { text: 'x', contacts: [CUSTOMER], quoteId: 'ABC' }],
  ])('400 for %s', async (_, body) => {
    const { status, body: answer } = await t.post('/v1/status/text', { sessionId, ...body })
    expect(status, JSON.stringify(answer)).toBe(400)
    expect(answer.error).toBe('validation_error')
    expect(records()).toBe(0)
  })

  it('400 for an image status without a fetchable URL, before anything is fetched', async () => {
    const { status, body } = await t.post('/v1/status/image', {
      sessionId,
      imageUrl: 'ftp://example.com/a.jpg',
      contacts: [CUSTOMER],
    })
    expect(status, JSON.stringify(body)).toBe(400)
    expect(records()).toBe(0)
  })

  it('404 for another workspace’s session, which it cannot tell from one that does not exist', async () => {
    const other = t.addWorkspace('other')
    const { status, body } = await t.post(
      '/v1/status/text',
      { sessionId, text: 'not yours', contacts: [CUSTOMER] },
      { key: other.key },
    )
    expect(status, JSON.stringify(body)).toBe(404)
    const deleting = await t.post('/v1/status/delete', { sessionId, messageId: 'ABC' }, { key: other.key })
    expect(deleting.status).toBe(404)
    expect(records()).toBe(0)
  })

  it('deletes only the session’s own statuses: a chat message is 404, a contact’s status 409', async () => {
    const chatMessage = await t.post('/v1/message/text', { sessionId, phone: CUSTOMER, message: 'a chat message' })
    expect(chatMessage.status).toBe(200)
    const notAStatus = await t.post('/v1/status/delete', { sessionId, messageId: chatMessage.body.messageId })
    expect(notAStatus.status, JSON.stringify(notAStatus.body)).toBe(404)

    const theirs = await t.sim.contact(CUSTOMER).postStatus({ text: 'mine, not yours' }, ACCOUNT)
    await t.waitForRecord(sessionId, theirs, (record) => record?.messageId === theirs)
    const refused = await t.post('/v1/status/delete', { sessionId, messageId: theirs })
    expect(refused.status, JSON.stringify(refused.body)).toBe(409)
    expect(refused.body.error).toBe('message_not_editable')

    const unknown = await t.post('/v1/status/delete', { sessionId, messageId: 'NOSUCHSTATUS' })
    expect(unknown.status).toBe(404)
    expect(t.sim.violations()).toEqual([])
  })
})
