import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChannelHandle } from '../../wa-sim/channel-handle'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

const ACCOUNT = '15550046201'
const UNKNOWN = '120363000000000001@newsletter'

/**
 * The channel routes against what a client may get wrong or try: another workspace's session
 * (404, as if it did not exist), channels WhatsApp does not know (404), unfollowing the account's
 * own channel (403), malformed ids and links, both or neither of id and link, limits out of
 * bounds, a session that is not connected (409). Nothing malformed reaches WhatsApp.
 */
describe('channels: isolation, validation, refusals', () => {
  let t: SimulatedGateway
  let sessionId: string
  let idleSession: string
  let otherKey: string
  let own: ChannelHandle

  const iqs = () => t.sim.account(ACCOUNT).stats().iqs
  const call = async (method: string, path: string, body?: unknown, key = t.key) => {
    const response = await t.request(path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    })
    return { status: response.status, body: (await response.json()) as any }
  }
  const routes = (session: string, channel: string) =>
    [
      ['GET', `/v1/channel/all?sessionId=${session}`, undefined],
      ['GET', `/v1/channel/info?sessionId=${session}&id=${channel}`, undefined],
      ['POST', `/v1/channel/${channel}/follow`, { sessionId: session }],
      ['POST', `/v1/channel/${channel}/unfollow`, { sessionId: session }],
      ['GET', `/v1/channel/${channel}/messages?sessionId=${session}`, undefined],
      ['POST', '/v1/message/text', { sessionId: session, phone: channel, message: 'x' }],
    ] as const

  beforeAll(async () => {
    t = await startSimulatedGateway()
    ;({ sessionId } = await t.linkSession({ phone: ACCOUNT }))
    own = t.sim.createChannel({ name: 'Mine', owner: ACCOUNT })
    otherKey = t.addWorkspace('other').key
    idleSession = (await t.connect({ sessionName: 'idle' })).body.sessionId
  }, 60_000)
  afterAll(async () => {
    await t.close()
  })

  it('another workspace’s session is 404 on every channel route, and nothing is asked of WhatsApp', async () => {
    const before = iqs()
    for (const [method, path, body] of routes(sessionId, own.jid)) {
      const answer = await call(method, path, body, otherKey)
      expect([path, answer.status, answer.body.error]).toEqual([path, 404, 'not_found'])
    }
    expect(iqs()).toBe(before)
    expect(own.info().posts).toEqual([])
  })

  it('a session that is not connected is 409 on every channel route', async () => {
    for (const [method, path, body] of routes(idleSession, own.jid)) {
      const answer = await call(method, path, body)
      expect([path, answer.status, answer.body.error]).toEqual([path, 409, 'session_not_connected'])
    }
  })

  it('a channel WhatsApp does not know is 404, by id and by link', async () => {
    const answers = [
      await call('GET', `/v1/channel/info?sessionId=${sessionId}&id=${UNKNOWN}`),
      await call('GET', `/v1/channel/info?sessionId=${sessionId}&link=https://whatsapp.com/channel/NoSuchChannelCode1`),
      await call('POST', `/v1/channel/${UNKNOWN}/follow`, { sessionId }),
      await call('POST', `/v1/channel/${UNKNOWN}/unfollow`, { sessionId }),
      await call('GET', `/v1/channel/${UNKNOWN}/messages?sessionId=${sessionId}`),
    ]
    for (const answer of answers)
      expect([answer.status, answer.body.error], answer.body.message).toEqual([404, 'not_found'])
    expect(answers[0]!.body.message).toContain(UNKNOWN)
    expect(t.sim.violations()).toEqual([])
  })

  it('unfollowing the account’s own channel is 403, and it stays the owner', async () => {
    const answer = await call('POST', `/v1/channel/${own.jid}/unfollow`, { sessionId })
    expect([answer.status, answer.body.error]).toEqual([403, 'forbidden'])
    expect(own.roleOf(ACCOUNT)).toBe('OWNER')
  })

  it('malformed ids, links and limits are 400 naming the field, before anything reaches WhatsApp', async () => {
    const before = iqs()
    const long = '9'.repeat(31)
    const bad = [
      ...['abc', '1234', `${long}`, `${long}@newsletter`, '123456@g.us', '123456@newsletter.x', '%20123456'].flatMap(
        (id) => [
          ['GET', `/v1/channel/info?sessionId=${sessionId}&id=${encodeURIComponent(id)}`, 'id'],
          ['POST', `/v1/channel/${encodeURIComponent(id)}/follow`, 'channelId'],
          ['GET', `/v1/channel/${encodeURIComponent(id)}/messages?sessionId=${sessionId}`, 'channelId'],
        ],
      ),
      ...[
        'https://evil.example/channel/AbCdEfGhIjKlMn',
        'http://whatsapp.com/channel/AbCdEfGhIjKlMn',
        'https://whatsapp.com/channel/short',
        `https://whatsapp.com/channel/${'A'.repeat(41)}`,
        'https://whatsapp.com/channel/AbCdEf-hIjKlMn',
        'x'.repeat(5_000),
      ].map((link) => ['GET', `/v1/channel/info?sessionId=${sessionId}&link=${encodeURIComponent(link)}`, 'link']),
      ['GET', `/v1/channel/info?sessionId=${sessionId}`, 'id'],
      ['GET', `/v1/channel/info?sessionId=${sessionId}&id=${own.jid}&link=${encodeURIComponent(own.link)}`, 'id'],
      ...['0', '101', '-1', '1.5', 'ten', '1e9'].map((limit) => [
        'GET',
        `/v1/channel/${own.jid}/messages?sessionId=${sessionId}&limit=${limit}`,
        'limit',
      ]),
      ['GET', `/v1/channel/all?sessionId=${sessionId}&extra=1`, 'extra'],
    ] as const
    for (const [method, path, field] of bad) {
      const answer = await call(method, path, method === 'POST' ? { sessionId } : undefined)
      expect([answer.status, answer.body.error], `${path}: ${answer.body.message}`).toEqual([400, 'validation_error'])
      expect(JSON.stringify(answer.body.details), path).toContain(field)
      // What was sent is echoed at most in part.
      expect(JSON.stringify(answer.body).length, path).toBeLessThan(2_000)
    }
    expect(iqs()).toBe(before)
    // The bounds themselves pass.
    for (const limit of ['1', '100']) {
      const answer = await call('GET', `/v1/channel/${own.jid}/messages?sessionId=${sessionId}&limit=${limit}`)
      expect(answer.status).toBe(200)
    }
    expect(t.sim.violations()).toEqual([])
  })
})
