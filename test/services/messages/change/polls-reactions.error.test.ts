import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pollUntil } from '../../../support/poll'
import { queryFile } from '../../../support/sqlite-file'
import { startSimulatedGateway, type SimulatedGateway } from '../../../support/simulated-gateway'
import { setTimeout as sleep } from 'node:timers/promises'

const ACCOUNT = '15550016301'
const OTHER_ACCOUNT = '15550016302'
const ANA = '15551236301'
const BEN = '15551236302'

/**
 * What polls and reactions refuse: bad bodies (400 naming the field), messages that are not of
 * the chat or of the workspace (404, never telling whether they exist), messages that cannot take
 * a reaction (409); nothing sent or recorded for any of them. And the emoji forms accepted.
 */
describe('polls and reactions that must be refused', () => {
  let t: SimulatedGateway
  let sessionId: string
  let anaMessage: string

  beforeAll(async () => {
    t = await startSimulatedGateway()
    t.sim.addContact(ANA)
    t.sim.addContact(BEN)
    sessionId = await t.pairByQr('refusals', ACCOUNT)
    anaMessage = await t.sim.contact(ANA).send({ text: 'react to me' })
    await t.waitForRecord(sessionId, anaMessage, (r) => r?.status === 'received')
  }, 60_000)
  afterAll(() => t.close())

  const records = () => queryFile<{ n: number }>(t.databasePath, 'SELECT count(*) AS n FROM messages')[0]!.n
  const inbox = (phone: string) => t.sim.contact(phone).inbox().length
  const poll = (body: Record<string, unknown>, options?: { key?: string; headers?: Record<string, string> }) =>
    t.post('/v1/message/poll', { sessionId, phone: ANA, question: 'Q?', options: ['A', 'B'], ...body }, options)
  const react = (body: Record<string, unknown>, options?: { key?: string }) =>
    t.post('/v1/message/reaction', { sessionId, phone: ANA, messageId: anaMessage, emoji: '👍', ...body }, options)

  it('400 for polls WhatsApp could not show or count, naming the field; nothing sent or recorded', async () => {
    const before = { records: records(), inbox: inbox(ANA) }
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ options: ['A', 'A'] }, 'options.1', /repeats option 0/],
      [{ options: ['Café', 'Cafe\u0301'] }, 'options.1', /repeats option 0/], // the same text once in NFC
      [{ options: [' A', 'A '] }, 'options.1', /repeats option 0/],
      [{ options: ['only'] }, 'options', /at least 2 options/],
      [{ options: Array.from({ length: 13 }, (_, i) => `o${i}`) }, 'options', /at most 12 options \(got 13\)/],
      [{ options: [] }, 'options', /at least 2/],
      [{ options: 'A,B' }, 'options', /array/],
      [{ options: ['A', ''] }, 'options.1', /must not be empty/],
      [{ options: ['A', 'x'.repeat(101)] }, 'options.1', /at most 100 characters/],
      [{ options: ['A', 'line\nbreak'] }, 'options.1', /control characters/],
      [{ options: ['A', 'B\u202e'] }, 'options.1', /bidirectional/],
      [{ selectableCount: 0 }, 'selectableCount', />=1/],
      [{ selectableCount: 3 }, 'selectableCount', /at most the number of options \(2\)/],
      [{ selectableCount: 1.5 }, 'selectableCount', /int/],
      [{ question: '' }, 'question', /must not be empty/],
      [{ question: '   ' }, 'question', /must not be empty/],
      [{ question: 'q'.repeat(256) }, 'question', /at most 255 characters/],
      [{ question: undefined }, 'question', /is required/],
      [{ extra: true }, '(body)', /unknown field: "extra"/],
    ]
    for (const [body, field, message] of cases) {
      const { status, body: answer } = await poll(body)
      expect({ body, status }).toMatchObject({ status: 400 })
      expect(answer.error).toBe('validation_error')
      const named = answer.details.fields.find((f: any) => f.path === field)
      expect({ body, named }).toMatchObject({ named: { message: expect.stringMatching(message) } })
    }
    expect({ records: records(), inbox: inbox(ANA) }).toEqual(before)
  })

  it('stays small and quick for huge polls: a 500 kB question, 10,000 options', async () => {
    const huge = await poll({ question: 'q'.repeat(500_000) })
    expect(huge.status).toBe(400)
    expect(JSON.stringify(huge.body).length).toBeLessThan(2_000)
    const many = await poll({ options: Array.from({ length: 10_000 }, (_, i) => `option ${i}`) })
    expect(many.status).toBe(400)
    expect(many.body.details.fields[0].message).toMatch(/at most 12 options \(got 10000\)/)
    expect(JSON.stringify(many.body).length).toBeLessThan(4_000)
  })

  it('400 for a reaction that is not one emoji; the forms that are one are taken', async () => {
    const before = { records: records(), inbox: inbox(ANA) }
    const bad = [
      '👍👍',
      'ok',
      'a',
      '1',
      '👍 ',
      ' ',
      '\u0000',
      '👩🏻‍❤️‍💋‍👨🏼', // one grapheme, 35 bytes
      '👍'.repeat(50_000),
      42,
      null,
    ]
    for (const emoji of bad) {
      const { status, body } = await react({ emoji })
      expect({ emoji, status }).toEqual({ emoji, status: 400 })
      expect(body.details.fields[0]).toMatchObject({ path: 'emoji' })
      expect(JSON.stringify(body).length).toBeLessThan(2_000)
    }
    expect({ records: records(), inbox: inbox(ANA) }).toEqual(before)

    for (const emoji of ['👍🏽', '🇫🇷', '1️⃣', '👩‍💻', '🏳️‍🌈', '❤️', '']) {
      const { status, body } = await react({ emoji })
      expect({ emoji, status, body }).toMatchObject({ emoji, status: 200 })
    }
    await pollUntil(
      () =>
        t.sim
          .contact(ANA)
          .inbox()
          .filter((m) => m.message.reactionMessage?.key?.id === anaMessage).length,
      (count) => count === 7,
      { what: 'the seven reactions at Ana' },
    )
    expect(t.sim.violations()).toEqual([])
  })

  it('404 for a message that is not of this chat or not of this session, telling nothing more', async () => {
    const sent = await t.post('/v1/message/text', { sessionId, phone: BEN, message: 'to Ben' })
    await t.sim.contact(BEN).waitForMessage((m) => m.id === sent.body.messageId)
    const before = { records: records(), ana: inbox(ANA), ben: inbox(BEN) }
    for (const body of [
      { messageId: 'NOSUCHMESSAGE' },
      { phone: BEN }, // Ana's message, named in Ben's chat
      { messageId: sent.body.messageId }, // Ben's message, named in Ana's chat
    ]) {
      const { status, body: answer } = await react(body)
      expect({ body, status, error: answer.error }).toEqual({ body, status: 404, error: 'not_found' })
    }
    // Another workspace: its own session id is unknown here, ours is unknown there.
    const other = t.addWorkspace('other')
    const { sessionId: otherSession } = await t.linkSession({
      phone: OTHER_ACCOUNT,
      connect: { sessionName: 'theirs' },
      key: other.key,
    })
    const theirs = await react({}, { key: other.key })
    const mine = await react({ sessionId: otherSession })
    const theirPoll = await poll({}, { key: other.key })
    const myPoll = await poll({ sessionId: otherSession })
    for (const answer of [theirs, mine, theirPoll, myPoll]) {
      expect(answer.status).toBe(404)
      expect(answer.body.error).toBe('not_found')
      expect(JSON.stringify(answer.body)).not.toContain(anaMessage)
    }
    // The other workspace's own session does not find this session's message either.
    const crossed = await react({ sessionId: otherSession }, { key: other.key })
    expect(crossed.status).toBe(404)
    for (const answer of [theirs, mine]) expect(answer.body.message).toMatch(/^Session "ses_\w+" not found$/)
    expect({ records: records(), ana: inbox(ANA), ben: inbox(BEN) }).toEqual(before)
  })

  it('409 for a reaction to a deleted message, and when the session is not connected', async () => {
    const sent = await t.post('/v1/message/text', { sessionId, phone: ANA, message: 'soon gone' })
    await t.waitForRecord(sessionId, sent.body.messageId, (r) => r.status !== 'pending')
    expect((await t.post('/v1/message/delete', { sessionId, phone: ANA, messageId: sent.body.messageId })).status).toBe(
      200,
    )
    const deleted = await react({ messageId: sent.body.messageId })
    expect(deleted.status).toBe(409)
    expect(deleted.body).toMatchObject({ error: 'message_not_editable', details: { status: 'deleted' } })

    t.sim.account(ACCOUNT).fault('drop')
    t.sim.account(ACCOUNT).fault('unreachable')
    await t.waitForStatus(sessionId, 'connecting')
    const offline = await react({})
    expect(offline.status).toBe(409)
    expect(offline.body.error).toBe('session_not_connected')
    const offlinePoll = await poll({})
    expect(offlinePoll.status).toBe(409)
    t.sim.account(ACCOUNT).clearFaults()
    await t.waitForStatus(sessionId, 'connected', 20_000)
  }, 40_000)

  it('sends a poll once per Idempotency-Key, also when retried at once; another body under it is 409', async () => {
    const headers = { 'idempotency-key': 'poll-once' }
    const before = inbox(ANA)
    const body = { question: 'Once?', options: ['Yes', 'No'] }
    const answers = await Promise.all([poll(body, { headers }), poll(body, { headers })])
    const again = await poll(body, { headers })
    const ids = new Set([...answers, again].map((a) => a.body.messageId))
    expect([...answers, again].map((a) => a.status)).toEqual([200, 200, 200])
    expect(ids.size).toBe(1)
    const [id] = [...ids]
    await t.sim.contact(ANA).waitForMessage((m) => m.id === id)
    await sleep(100)
    expect(inbox(ANA)).toBe(before + 1)
    const reused = await poll({ ...body, question: 'Twice?' }, { headers })
    expect(reused.status).toBe(409)
    expect(reused.body.error).toBe('idempotency_key_reused')
  })
})
