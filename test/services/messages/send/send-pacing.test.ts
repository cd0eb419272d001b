import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  MAX_PRESENCE_MS,
  MIN_PRESENCE_MS,
  TYPING_MS_PER_CHARACTER,
} from '../../../../src/services/messages/send/pacing'
import { fixtures } from '../../../support/media-fixtures'
import { startMediaServer, type MediaServer } from '../../../support/media-server'
import { pollUntil } from '../../../support/poll'
import { startSimulatedGateway, type SimulatedGateway } from '../../../support/simulated-gateway'
import { queryFile } from '../../../support/sqlite-file'
import { tempDir } from '../../../support/temp-dir'
import { setTimeout as sleep } from 'node:timers/promises'

const CONTACT = '15551236101'
const CONTACT_JID = `${CONTACT}@s.whatsapp.net`
const MAX_WAIT_MS = 3_000
/** The simulator stamps a message when it decrypts it, a little after Baileys wrote it. */
const TOLERANCE_MS = 60

const textOf = (m: {
  message: { conversation?: string | null; extendedTextMessage?: { text?: string | null } | null }
}) => m.message.conversation ?? m.message.extendedTextMessage?.text ?? undefined

/**
 * Per-session send pacing through the real Baileys client and the simulator: the order and the
 * spacing of what the contact receives (the simulator's own timestamps), the chat states the
 * account's client sent before each message, the queue's bound (429), and what a queued send
 * does on a retry, a disconnect and a change of pacing.
 */
describe('send pacing', () => {
  let t: SimulatedGateway
  let files: MediaServer
  const sessions: Record<string, string> = {}

  const pair = async (name: string, phone: string) => {
    sessions[name] = await t.pairByQr(name, phone)
    return sessions[name]!
  }
  const put = async (sessionId: string, body: unknown, key = t.key) => {
    const response = await t.request(`/v1/session/update/${sessionId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as any }
  }
  const sendText = (sessionId: string, message: string, headers: Record<string, string> = {}) =>
    t.post('/v1/message/text', { sessionId, phone: CONTACT, message }, { headers })
  const inbox = (texts: string[]) =>
    t.sim
      .contact(CONTACT)
      .inbox()
      .filter((m) => texts.includes(textOf(m) ?? ''))
  const records = async (sessionId: string) =>
    (await t.get(`/v1/message/all?sessionId=${sessionId}&limit=100`)).body.messages as { content: { text?: string } }[]
  const chatStates = (phone: string, since: number) =>
    t.sim
      .account(phone)
      .presence()
      .filter((p) => p.kind === 'chatstate' && p.timestamp >= since)
      .map((p) => p as { to: string; state: string; timestamp: number })

  beforeAll(async () => {
    files = await startMediaServer()
    t = await startSimulatedGateway({
      plan: 'paid',
      config: { allowPrivateAddresses: true, sendQueueMaxWaitMs: MAX_WAIT_MS },
    })
    t.sim.addContact(CONTACT)
    await pair('spaced', '15550016101')
    await pair('typist', '15550016102')
    await pair('bounded', '15550016103')
    await pair('plain', '15550016104')
    await pair('leaving', '15550016105')
    await pair('burst', '15550016107')
  }, 90_000)
  afterAll(async () => {
    await t.close()
    await files.close()
  })

  it('hands paced sends over in order, each at least minIntervalMs after the one before', async () => {
    const sessionId = sessions.spaced!
    const pacing = { minIntervalMs: 600, jitterMs: 0, typing: false }
    const updated = await put(sessionId, { sendPacing: pacing })
    expect([updated.status, updated.body.sendPacing]).toEqual([200, pacing])

    const texts = ['spaced 1', 'spaced 2', 'spaced 3', 'spaced 4']
    const answers: Promise<{ status: number; body: any }>[] = []
    for (const text of texts) {
      answers.push(sendText(sessionId, text))
      await sleep(40) // so they enter the queue in this order
    }
    expect((await Promise.all(answers)).map((a) => a.status)).toEqual([200, 200, 200, 200])
    const arrived = await pollUntil(
      () => inbox(texts),
      (list) => list.length === 4,
      { what: 'four paced messages' },
    )
    expect(arrived.map(textOf)).toEqual(texts)
    for (let i = 1; i < arrived.length; i++) {
      const gap = arrived[i]!.timestamp - arrived[i - 1]!.timestamp
      expect(gap, `gap ${i}`).toBeGreaterThanOrEqual(pacing.minIntervalMs - TOLERANCE_MS)
      expect(gap, `gap ${i}`).toBeLessThan(pacing.minIntervalMs + 1_500)
    }
    // Pacing shows no typing when it is off.
    expect(chatStates('15550016101', 0)).toEqual([])
  })

  it('shows composing (recording before a voice note) for a time that fits, then paused, before each send', async () => {
    const sessionId = sessions.typist!
    const phone = '15550016102'
    expect((await put(sessionId, { sendPacing: { minIntervalMs: 0, typing: true } })).body.sendPacing).toEqual({
      minIntervalMs: 0,
      jitterMs: 0,
      typing: true,
    })
    files.serve('note.mp3', await fixtures.mp3(2), 'audio/mpeg')
    const since = Date.now()
    const short = 'hi'
    const long = 'x'.repeat(50)
    const first = await sendText(sessionId, short)
    const second = await sendText(sessionId, long)
    const voice = await t.post('/v1/message/audio', {
      sessionId,
      phone: CONTACT,
      audioUrl: files.url('note.mp3'),
      ptt: true,
    })
    expect([first.status, second.status, voice.status]).toEqual([200, 200, 200])

    const states = chatStates(phone, since)
    expect(states.map((s) => [s.to, s.state])).toEqual([
      [CONTACT_JID, 'composing'],
      [CONTACT_JID, 'paused'],
      [CONTACT_JID, 'composing'],
      [CONTACT_JID, 'paused'],
      [CONTACT_JID, 'recording'],
      [CONTACT_JID, 'paused'],
    ])
    const expected = [
      Math.max(MIN_PRESENCE_MS, short.length * TYPING_MS_PER_CHARACTER),
      Math.min(MAX_PRESENCE_MS, long.length * TYPING_MS_PER_CHARACTER),
      2_000,
    ]
    const messages = [first, second, voice].map((a) => a.body.messageId as string)
    for (const [i, id] of messages.entries()) {
      const shown = states[2 * i]!
      const stopped = states[2 * i + 1]!
      const message = await t.sim.contact(CONTACT).waitForMessage((m) => m.id === id)
      expect(stopped.timestamp - shown.timestamp, `presence ${i}`).toBeGreaterThanOrEqual(expected[i]! - TOLERANCE_MS)
      expect(stopped.timestamp - shown.timestamp, `presence ${i}`).toBeLessThan(expected[i]! + 1_000)
      // Shown and stopped before the message, never after it.
      expect(message.timestamp).toBeGreaterThanOrEqual(stopped.timestamp)
    }
  }, 30_000)

  it('refuses a send whose turn is further than SEND_QUEUE_MAX_WAIT_MS: 429 with Retry-After, nothing recorded or sent', async () => {
    const sessionId = sessions.bounded!
    await put(sessionId, { sendPacing: { minIntervalMs: 2_000 } })
    expect((await sendText(sessionId, 'bounded 1')).status).toBe(200)
    const second = sendText(sessionId, 'bounded 2')
    await sleep(100)
    const third = await sendText(sessionId, 'bounded 3', { 'Idempotency-Key': 'bounded-3' })
    expect([third.status, third.body.error, third.body.details.reason]).toEqual([
      429,
      'rate_limited',
      'send_queue_full',
    ])
    const retryAfter = Number(third.headers.get('retry-after'))
    expect(retryAfter).toBe(third.body.details.retryAfterSeconds)
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(2)
    expect(third.body.details.maxWaitMs).toBe(MAX_WAIT_MS)

    expect((await second).status).toBe(200)
    expect((await records(sessionId)).map((r) => r.content.text)).toEqual(['bounded 2', 'bounded 1'])
    // The key was released with nothing bound to it: once the queue allows, the retry sends it, once.
    await sleep(retryAfter * 1000)
    const retry = await sendText(sessionId, 'bounded 3', { 'Idempotency-Key': 'bounded-3' })
    expect(retry.status).toBe(200)
    await t.sim.contact(CONTACT).waitForMessage((m) => m.id === retry.body.messageId)
    expect(inbox(['bounded 3'])).toHaveLength(1)
  }, 20_000)

  it('plans typing-only sends one typing after another: of many at once, the excess is 429 at once, nothing recorded or sent', async () => {
    const sessionId = sessions.burst!
    await put(sessionId, { sendPacing: { minIntervalMs: 0, typing: true } })
    // Short texts: each shows the least typing, MIN_PRESENCE_MS, and that is its whole turn.
    const texts = Array.from({ length: 40 }, (_, i) => `burst ${i}`)
    const began = Date.now()
    const answers = await Promise.all(
      texts.map(async (text) => ({ text, ...(await sendText(sessionId, text)), at: Date.now() - began })),
    )
    const admitted = answers.filter((a) => a.status === 200)
    const refused = answers.filter((a) => a.status !== 200)
    // Turns begin 0, 0.8, 1.6, 2.4 s after the first: a fifth's (3.2 s) is past MAX_WAIT_MS.
    expect(admitted.length).toBeGreaterThanOrEqual(2)
    expect(admitted.length).toBeLessThanOrEqual(Math.floor(MAX_WAIT_MS / MIN_PRESENCE_MS) + 1)
    const firstHandedOver = Math.min(...admitted.map((a) => a.at))
    for (const answer of refused) {
      expect([answer.status, answer.body.error, answer.body.details.reason]).toEqual([
        429,
        'rate_limited',
        'send_queue_full',
      ])
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      // Refused as it came, not when a turn would have come.
      expect(answer.at).toBeLessThan(firstHandedOver)
    }
    // None of the admitted waited past the bound (plus its own typing and the hand-over).
    for (const answer of admitted) expect(answer.at).toBeLessThan(MAX_WAIT_MS + MIN_PRESENCE_MS + 1_500)
    const sent = admitted.map((a) => a.text).sort()
    expect((await records(sessionId)).map((r) => r.content.text).sort()).toEqual(sent)
    await sleep(300)
    expect(
      inbox(texts)
        .map((m) => textOf(m))
        .sort(),
    ).toEqual(sent)
  }, 30_000)

  it('makes an Idempotency-Key retry of a queued send wait for it: one copy', async () => {
    const sessionId = sessions.bounded!
    await put(sessionId, { sendPacing: { minIntervalMs: 1_500 } })
    await sendText(sessionId, 'keyed 0')
    const first = sendText(sessionId, 'keyed 1', { 'Idempotency-Key': 'queued-1' })
    await sleep(100)
    const retry = sendText(sessionId, 'keyed 1', { 'Idempotency-Key': 'queued-1' })
    const [a, b] = await Promise.all([first, retry])
    expect([a.status, b.status]).toEqual([200, 200])
    expect(b.body.messageId).toBe(a.body.messageId)
    await t.sim.contact(CONTACT).waitForMessage((m) => m.id === a.body.messageId)
    await sleep(300)
    expect(inbox(['keyed 1'])).toHaveLength(1)
  }, 20_000)

  it('holds neither unpaced sessions nor contact checks behind a paced queue', async () => {
    const paced = sessions.bounded!
    await put(paced, { sendPacing: { minIntervalMs: 2_500 } })
    await sendText(paced, 'held 0')
    const order: string[] = []
    const held = sendText(paced, 'held 1').then((a) => {
      order.push('paced')
      return a
    })
    await sleep(100)
    const plain = await sendText(sessions.plain!, 'not held')
    order.push('unpaced')
    const check = await t.post('/v1/contact/check', { sessionId: paced, phones: [CONTACT] })
    order.push('check')
    expect([plain.status, check.status, (await held).status]).toEqual([200, 200, 200])
    expect(order).toEqual(['unpaced', 'check', 'paced'])
    expect(chatStates('15550016104', 0)).toEqual([])
  }, 20_000)

  it('answers 409 at once for sends waiting when their session is disconnected, recording and sending none', async () => {
    const sessionId = sessions.leaving!
    await put(sessionId, { sendPacing: { minIntervalMs: 1_400 } })
    expect((await sendText(sessionId, 'leaving 0')).status).toBe(200)
    // Both wait for the turn 1.4 s after the first hand-over (the second's comes then too if the first fails).
    const order: string[] = []
    const waiting = [sendText(sessionId, 'leaving 1'), sendText(sessionId, 'leaving 2')].map((answer) =>
      answer.then((a) => {
        order.push('answered')
        return a
      }),
    )
    const turnDue = sleep(1_000).then(() => order.push('first turn due'))
    await sleep(200)
    const gone = await t.request(`/v1/session/disconnect/${sessionId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${t.key}` },
    })
    expect(gone.status).toBe(200)
    const answers = await Promise.all(waiting)
    await turnDue
    expect(answers.map((a) => [a.status, a.body.error])).toEqual([
      [409, 'session_not_connected'],
      [409, 'session_not_connected'],
    ])
    // Refused as the session left, not when each turn came.
    expect(order).toEqual(['answered', 'answered', 'first turn due'])
    expect((await records(sessionId)).map((r) => r.content.text)).toEqual(['leaving 0'])
    await sleep(300)
    expect(inbox(['leaving 1', 'leaving 2'])).toEqual([])
  }, 20_000)

  it('applies a change of pacing to the sends made after it', async () => {
    const {
      sessionId,
      connected,
      session: listed,
    } = await t.linkSession({
      phone: '15550016106',
      connect: { sessionName: 'changing', sendPacing: { minIntervalMs: 2_000 } },
    })
    expect(connected.sendPacing).toEqual({ minIntervalMs: 2_000, jitterMs: 0, typing: false })
    expect(listed.sendPacing).toEqual({ minIntervalMs: 2_000, jitterMs: 0, typing: false })

    await sendText(sessionId, 'changing 1')
    const off = await put(sessionId, { sendPacing: null })
    expect([off.status, off.body.sendPacing]).toEqual([200, null])
    await sendText(sessionId, 'changing 2')
    await put(sessionId, { sendPacing: { minIntervalMs: 1_000 } })
    await sendText(sessionId, 'changing 3')
    await sendText(sessionId, 'changing 4')
    const arrived = await pollUntil(
      () => inbox(['changing 1', 'changing 2', 'changing 3', 'changing 4']),
      (list) => list.length === 4,
      { what: 'four messages' },
    )
    const gaps = arrived.slice(1).map((m, i) => m.timestamp - arrived[i]!.timestamp)
    // Unpaced right after the first (which a 2 s pacing would have held), then 1 s apart.
    expect(gaps[0]).toBeLessThan(1_500)
    expect(gaps[2]).toBeGreaterThanOrEqual(1_000 - TOLERANCE_MS)
  }, 30_000)

  it('refuses malformed pacing (400) and another workspace’s session (404), changing nothing', async () => {
    const sessionId = sessions.plain!
    for (const sendPacing of [
      { minIntervalMs: -1 },
      { minIntervalMs: 600_001 },
      { minIntervalMs: 1.5 },
      { minIntervalMs: '1000' },
      { minIntervalMs: 1_000, jitterMs: 1e12 },
      { minIntervalMs: 1_000, typing: 'yes' },
      { minIntervalMs: 1_000, extra: true },
      { jitterMs: 100 },
      [1000, 0, true],
      'fast',
      {},
    ]) {
      const answer = await put(sessionId, { sendPacing })
      expect([answer.status, answer.body.error], JSON.stringify(sendPacing)).toEqual([400, 'validation_error'])
      expect(answer.body.details.fields[0].path).toMatch(/^sendPacing/)
    }
    const huge = await t.request(`/v1/session/update/${sessionId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}` },
      body: '{"sendPacing":{"minIntervalMs":1e400}}',
    })
    expect(huge.status).toBe(400)
    const other = t.addWorkspace('other-pacing')
    const theirs = await put(sessionId, { sendPacing: { minIntervalMs: 1_000 } }, other.key)
    expect([theirs.status, theirs.body.error]).toEqual([404, 'not_found'])
    const listed = (await t.listSessions()).find((s) => s.sessionId === sessionId)
    expect(listed?.sendPacing).toBeNull()
  })

  it('left the simulator no protocol violations', () => {
    expect(t.sim.violations()).toEqual([])
  })
})

describe('send pacing from the environment (SEND_PACING_*)', () => {
  let t: SimulatedGateway
  beforeAll(async () => {
    t = await startSimulatedGateway({ config: { sendPacing: { minIntervalMs: 800, jitterMs: 0, typing: false } } })
    t.sim.addContact(CONTACT)
  }, 60_000)
  afterAll(() => t.close())

  it('paces a session without its own, and not one whose own pacing is off', async () => {
    const defaulted = await t.pairByQr('defaulted', '15550016201')
    const own = await t.pairByQr('own', '15550016202')
    const put = await t.request(`/v1/session/update/${own}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}` },
      body: JSON.stringify({ sendPacing: { minIntervalMs: 0, jitterMs: 0, typing: false } }),
    })
    expect(put.status).toBe(200)
    const gapsOf = async (sessionId: string, prefix: string) => {
      const texts = [`${prefix} 1`, `${prefix} 2`, `${prefix} 3`]
      for (const message of texts) await t.post('/v1/message/text', { sessionId, phone: CONTACT, message })
      const arrived = await pollUntil(
        () =>
          t.sim
            .contact(CONTACT)
            .inbox()
            .filter((m) => texts.includes(textOf(m) ?? '')),
        (list) => list.length === 3,
        { what: `${prefix} messages` },
      )
      return arrived.slice(1).map((m, i) => m.timestamp - arrived[i]!.timestamp)
    }
    for (const gap of await gapsOf(defaulted, 'defaulted')) expect(gap).toBeGreaterThanOrEqual(800 - TOLERANCE_MS)
    expect(Math.min(...(await gapsOf(own, 'own')))).toBeLessThan(800 - TOLERANCE_MS)
  }, 30_000)
})

describe('send pacing across a restart', () => {
  const dir = tempDir()
  const databasePath = join(dir.path, 'gateway.db')
  const PHONE = '15550016301'
  let first: SimulatedGateway
  let second: SimulatedGateway | undefined
  afterAll(async () => {
    await second?.stopGateway()
    await first.close()
    dir.cleanup()
  })

  it('answers a waiting send 409 when the gateway stops, records nothing, and a retry with its key sends it once', async () => {
    first = await startSimulatedGateway({ databasePath })
    first.sim.addContact(CONTACT)
    const sessionId = await first.pairByQr('restarting', PHONE)
    const put = await first.request(`/v1/session/update/${sessionId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sendPacing: { minIntervalMs: 20_000 } }),
    })
    expect(put.status).toBe(200)
    const send = (t: SimulatedGateway, message: string, key: string) =>
      t.post('/v1/message/text', { sessionId, phone: CONTACT, message }, { headers: { 'Idempotency-Key': key } })
    expect((await send(first, 'restart 0', 'restart-0')).status).toBe(200)
    const waiting = send(first, 'restart 1', 'restart-1')
    await sleep(200)
    await first.stopGateway()
    const answer = await waiting
    expect([answer.status, answer.body.error]).toEqual([409, 'session_not_connected'])
    expect(answer.body.message).toMatch(/stopping/)
    expect(
      queryFile(databasePath, 'SELECT content FROM messages').map((row: any) => JSON.parse(row.content).text),
    ).toEqual(['restart 0'])
    expect(queryFile(databasePath, "SELECT key FROM idempotency_keys WHERE key = 'restart-1'")).toEqual([])

    second = await startSimulatedGateway({ databasePath, reuse: { sim: first.sim, control: first.control } })
    await second.waitForStatus(sessionId, 'connected')
    // The queue lived in the stopped process: the first send after the restart goes at once.
    const retry = await send(second, 'restart 1', 'restart-1')
    expect(retry.status).toBe(200)
    await first.sim.contact(CONTACT).waitForMessage((m) => m.id === retry.body.messageId)
    expect(
      first.sim
        .contact(CONTACT)
        .inbox()
        .filter((m) => textOf(m) === 'restart 1'),
    ).toHaveLength(1)
  }, 60_000)
})
