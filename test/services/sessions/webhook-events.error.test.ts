import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

const PLANS = {
  free: { interactiveMessages: false, messageWebhooks: false, dailyContactChecks: 20, maxSessions: 100 },
  paid: { interactiveMessages: true, messageWebhooks: true, dailyContactChecks: 5000, maxSessions: 100 },
}

/** Every wrong webhookEvents a client could send, on connect and on update: 400, nothing changed. */
const BAD_VALUES: [what: string, value: unknown, message: RegExp][] = [
  ['an unknown type', ['message.received', 'message.nope'], /message\.received/],
  ['an empty list', [], /at least one event type/],
  ['a repeat', ['session.status', 'call.received', 'session.status'], /"session\.status" is listed more than once/],
  ['10,000 entries', Array.from({ length: 10_000 }, () => 'session.status'), /more than the 22 event types/],
  ['10,000 unknown names', Array.from({ length: 10_000 }, (_, i) => `nope.${i}`), /more than the 22 event types/],
  ['a string', 'message.received', /array/],
  ['a number', 42, /array/],
  ['an object', { 'message.received': true }, /array/],
  ['a number inside', [1], /message\.received/],
  ['a huge name', ['x'.repeat(100_000)], /message\.received/],
]

describe('webhookEvents refuses what it cannot mean', () => {
  let t: SimulatedGateway
  let other: { key: string }
  let free: { key: string }
  let sessionId: string

  const put = async (id: string, body: unknown, key = t.key) => {
    const response = await t.request(`/v1/session/update/${id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as any }
  }
  const messages = (body: any) => (body.details.fields as { message: string }[]).map((f) => f.message).join(' | ')
  const filterOf = async (id: string, key = t.key) =>
    (await t.listSessions(key)).find((s) => s.sessionId === id)?.webhookEvents

  beforeAll(async () => {
    t = await startSimulatedGateway({ plan: 'paid', config: { plans: PLANS } })
    other = t.addWorkspace('other-team', 'paid')
    free = t.addWorkspace('free-team', 'free')
    const connected = await t.connect({ sessionName: 'main', webhookEvents: ['session.status', 'message.received'] })
    expect(connected.status).toBe(200)
    expect(connected.body.webhookEvents).toEqual(['session.status', 'message.received'])
    sessionId = connected.body.sessionId
  })
  afterAll(() => t.close())

  it('shows null (every type) when none was asked for', async () => {
    const { body } = await t.connect({ sessionName: 'all' })
    expect(body.webhookEvents).toBeNull()
    expect(await filterOf(body.sessionId)).toBeNull()
  })

  it.each(BAD_VALUES)('connect: %s is 400 and creates nothing', async (what, value, message) => {
    const response = await t.connect({ sessionName: `refused-${what.replace(/\W+/g, '-')}`, webhookEvents: value })
    expect(response.status).toBe(400)
    expect(response.body.error).toBe('validation_error')
    expect(response.body.details.fields[0].path).toMatch(/^webhookEvents/)
    expect(response.body.details.fields.length).toBeLessThanOrEqual(20)
    expect(messages(response.body)).toMatch(message)
    expect(JSON.stringify(response.body).length).toBeLessThan(5_000)
    expect((await t.listSessions()).filter((s) => s.sessionName.startsWith('refused'))).toEqual([])
  })

  it.each(BAD_VALUES)('update: %s is 400 and changes nothing', async (_, value, message) => {
    const response = await put(sessionId, { webhookEvents: value, sessionName: 'renamed' })
    expect(response.status).toBe(400)
    expect(messages(response.body)).toMatch(message)
    const listed = (await t.listSessions()).find((s) => s.sessionId === sessionId)
    expect(listed).toMatchObject({ sessionName: 'main', webhookEvents: ['session.status', 'message.received'] })
  })

  it('names the repeat at its place in the list', async () => {
    const response = await put(sessionId, { webhookEvents: ['group.left', 'call.received', 'group.left'] })
    expect(response.body.details.fields).toEqual([
      { path: 'webhookEvents.2', message: '"group.left" is listed more than once' },
    ])
  })

  it('answers 404 to another workspace, exactly as for an id that does not exist, and changes nothing', async () => {
    const foreign = await put(sessionId, { webhookEvents: ['call.received'] }, other.key)
    const missing = await put('ses_doesnotexist', { webhookEvents: ['call.received'] }, other.key)
    expect(foreign.status).toBe(404)
    expect(foreign.body.error).toBe('not_found')
    expect({ ...foreign.body, message: undefined, requestId: undefined }).toEqual({
      ...missing.body,
      message: undefined,
      requestId: undefined,
    })
    expect(await filterOf(sessionId)).toEqual(['session.status', 'message.received'])
  })

  it('keeps one of concurrent updates whole', async () => {
    const lists = [['call.received'], ['group.joined', 'group.left'], null, ['session.qr', 'session.status']]
    const answers = await Promise.all(lists.map((webhookEvents) => put(sessionId, { webhookEvents })))
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200])
    expect(lists).toContainEqual(await filterOf(sessionId))
    expect((await put(sessionId, { webhookEvents: ['session.status', 'message.received'] })).status).toBe(200)
  })

  describe('on a plan without message webhooks', () => {
    it('refuses message.* types on connect with 403, as webhookMessages: true is, and creates nothing', async () => {
      const refused = await t.connect(
        { sessionName: 'free-one', webhookEvents: ['session.status', 'message.received', 'message.status'] },
        free.key,
      )
      expect(refused.status).toBe(403)
      expect(refused.body).toMatchObject({ error: 'plan_required', details: { feature: 'webhookMessages' } })
      expect(refused.body.message).toMatch(/message\.received, message\.status/)
      expect(await t.listSessions(free.key)).toEqual([])
    })

    it('accepts the other types, and refuses message.* on update leaving the list as it was', async () => {
      const accepted = await t.connect({ sessionName: 'free-one', webhookEvents: ['session.status'] }, free.key)
      expect(accepted.status).toBe(200)
      expect(accepted.body).toMatchObject({ webhookEvents: ['session.status'], webhookMessages: false })
      const refused = await put(accepted.body.sessionId, { webhookEvents: ['message.reaction'] }, free.key)
      expect(refused.status).toBe(403)
      expect(refused.body).toMatchObject({ error: 'plan_required', details: { feature: 'webhookMessages' } })
      expect(await filterOf(accepted.body.sessionId, free.key)).toEqual(['session.status'])
      const widened = await put(
        accepted.body.sessionId,
        { webhookEvents: ['session.status', 'call.received'] },
        free.key,
      )
      expect(widened.body.webhookEvents).toEqual(['session.status', 'call.received'])
      expect((await put(accepted.body.sessionId, { webhookEvents: null }, free.key)).body.webhookEvents).toBeNull()
    })
  })
})
