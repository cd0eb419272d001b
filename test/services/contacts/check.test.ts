import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { jsonBody } from '../../support/gateway'
import { queryFile } from '../../support/sqlite-file'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import { setTimeout as sleep } from 'node:timers/promises'

const KNOWN = ['15557100001', '15557100002', '447700900003']
const UNKNOWN = ['15559999001', '15559999002']

/** A clock the test moves by hand. */
const movableClock = (start: string) => {
  let now = new Date(start)
  return { now: () => now, set: (iso: string) => (now = new Date(iso)) }
}

describe('POST /v1/contact/check', () => {
  const clock = movableClock('2026-11-21T10:00:00.000Z')
  let t: SimulatedGateway
  let sessionId: string
  const ACCOUNT = '15550006001'

  const check = async (phones: unknown, session = sessionId, key = t.key) => {
    const response = await t.request('/v1/contact/check', {
      ...jsonBody({ sessionId: session, phones }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    })
    return { status: response.status, headers: response.headers, body: (await response.json()) as any }
  }
  const usedToday = (day = clock.now().toISOString().slice(0, 10)) =>
    queryFile<{ used: number }>(t.databasePath, 'SELECT used FROM contact_check_usage WHERE day = ?', day)[0]?.used ?? 0
  /** n different numbers nobody has: each counts against the quota. */
  const distinct = (n: number) => Array.from({ length: n }, (_, i) => `1555800${String(i).padStart(4, '0')}`)

  /** Each test counts on a UTC day of its own (every other day: one test moves on to the next), so no test depends on what another used. */
  let days = 0
  beforeEach(async () => {
    clock.set(`2026-12-${String(++days * 2).padStart(2, '0')}T10:00:00.000Z`)
    // A test that dropped the connection leaves it reconnecting for a moment.
    if (sessionId) await t.waitForStatus(sessionId, 'connected')
  })

  beforeAll(async () => {
    t = await startSimulatedGateway({ clock, simulator: { contacts: KNOWN }, config: { queryTimeoutMs: 1_000 } })
    sessionId = await t.pairByQr('checker', ACCOUNT)
  })
  afterAll(() => t.close())

  it('answers in request order, echoing each phone, with jid and lid only for existing numbers; a repeat counts once', async () => {
    const phones = [UNKNOWN[0], KNOWN[0], KNOWN[2], UNKNOWN[1], KNOWN[0]]
    const usync = t.sim.account(ACCOUNT).stats().usyncQueries
    const { status, body, headers } = await check(phones)
    expect(status).toBe(200)
    expect(body.results.map((r: any) => r.phone)).toEqual(phones)
    expect(body.results.map((r: any) => r.exists)).toEqual([false, true, true, false, true])
    for (const r of body.results) {
      if (r.exists) {
        expect(r.jid).toBe(`${r.phone}@s.whatsapp.net`)
        expect(r.lid).toBe(`${t.sim.contact(r.phone).lid}@lid`)
      } else {
        expect(Object.keys(r).sort()).toEqual(['exists', 'phone'])
      }
    }
    expect(body).toMatchObject({ success: true, summary: { total: 5, exists: 3, notExists: 2 } })
    // One network round trip for the whole batch.
    expect(t.sim.account(ACCOUNT).stats().usyncQueries).toBe(usync + 1)
    expect(headers.get('ratelimit-limit')).toBe('20')
    // KNOWN[0] is asked twice: four numbers, four checks.
    expect(headers.get('ratelimit-remaining')).toBe('16')
    expect(headers.get('ratelimit-reset')).toBe(String(14 * 3600))
    expect(usedToday()).toBe(4)
  })

  it('accepts pasted formatting, answers each phone as sent, and counts one number once however written', async () => {
    const phones = ['+1 555-710-0001', '(1555) 7100001', '1555.710.0002', '+1 (555) 999-9001']
    const { status, body } = await check(phones)
    expect(status).toBe(200)
    expect(body.results).toEqual([
      {
        phone: '+1 555-710-0001',
        exists: true,
        jid: '15557100001@s.whatsapp.net',
        lid: `${t.sim.contact(KNOWN[0]!).lid}@lid`,
      },
      {
        phone: '(1555) 7100001',
        exists: true,
        jid: '15557100001@s.whatsapp.net',
        lid: `${t.sim.contact(KNOWN[0]!).lid}@lid`,
      },
      {
        phone: '1555.710.0002',
        exists: true,
        jid: '15557100002@s.whatsapp.net',
        lid: `${t.sim.contact(KNOWN[1]!).lid}@lid`,
      },
      { phone: '+1 (555) 999-9001', exists: false },
    ])
    expect(body.summary).toEqual({ total: 4, exists: 3, notExists: 1 })
    expect(usedToday()).toBe(3)
  })

  it('refuses more than 50 numbers and non-digit entries, naming them, and counts nothing', async () => {
    const tooMany = await check(Array.from({ length: 51 }, (_, i) => `1555000${String(i).padStart(4, '0')}`))
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.details.fields).toEqual([
      { path: 'phones', message: 'at most 50 numbers per request (got 51)' },
    ])
    const bad = await check(['15557100001', '+1 555 7', 'abc', '1+5557100001'])
    expect(bad.status).toBe(400)
    expect(bad.body.details.fields.map((f: any) => f.path)).toEqual(['phones.1', 'phones.2', 'phones.3'])
    expect(bad.body.details.fields[0].message).toContain('"+1 555 7"')
    expect((await check([])).status).toBe(400)
    expect(usedToday()).toBe(0)
  })

  it('gives the checks back when the network does not answer', async () => {
    const account = t.sim.account(ACCOUNT)
    account.fault('unresponsive')
    try {
      const { status, body } = await check([KNOWN[0], KNOWN[1]])
      expect(status).toBe(504)
      expect(body.error).toBe('upstream_timeout')
    } finally {
      account.clearFaults()
    }
    expect(usedToday()).toBe(0)
  })

  it('gives the checks back when the connection drops during the query', async () => {
    const account = t.sim.account(ACCOUNT)
    account.fault('unresponsive')
    const pending = check([KNOWN[0], KNOWN[1], KNOWN[2]])
    await sleep(100)
    account.clearFaults()
    account.fault('drop')
    const { status, body } = await pending
    expect(status).toBe(502)
    expect(body).toMatchObject({ error: 'upstream_error', message: expect.stringMatching(/nothing was counted/) })
    expect(usedToday()).toBe(0)
    await t.waitForStatus(sessionId, 'connected')
  })

  it('refuses a request that would pass the quota, whole, saying how many remain', async () => {
    expect((await check(distinct(15))).status).toBe(200) // 15 used
    const { status, body, headers } = await check(distinct(6))
    expect(status).toBe(429)
    expect(body.error).toBe('daily_limit_exceeded')
    expect(body.message).toMatch(/5 checks remain today/)
    expect(body.details).toEqual({
      limit: 20,
      used: 15,
      remaining: 5,
      resetsAt: new Date(Date.parse(clock.now().toISOString().slice(0, 10)) + 86_400_000).toISOString(),
    })
    expect(headers.get('ratelimit-remaining')).toBe('5')
    expect(headers.get('retry-after')).toBe(String(14 * 3600))
    expect(usedToday()).toBe(15)
  })

  it('starts over on the next UTC day', async () => {
    expect((await check(distinct(20))).status).toBe(200)
    expect((await check([KNOWN[0]])).status).toBe(429)
    clock.set(new Date(clock.now().getTime() + 86_400_000).toISOString())
    const { status, headers } = await check([KNOWN[0]])
    expect(status).toBe(200)
    expect(headers.get('ratelimit-remaining')).toBe('19')
  })

  it('answers 404 for a session of another workspace and 409 for one that is not connected', async () => {
    const other = t.addWorkspace('other')
    const foreign = await check([KNOWN[0]], sessionId, other.key)
    expect(foreign.status).toBe(404)
    const pending = (await t.connect({ sessionName: 'not-yet' })).body.sessionId
    const offline = await check([KNOWN[0]], pending)
    expect(offline.status).toBe(409)
    expect(offline.body).toMatchObject({ error: 'session_not_connected', details: { status: 'pending' } })
  })
})

describe('contact check quota on the paid plan', () => {
  let t: SimulatedGateway
  beforeAll(async () => {
    t = await startSimulatedGateway({ plan: 'paid', simulator: { contacts: KNOWN } })
  })
  afterAll(() => t.close())

  it('uses the paid daily limit', async () => {
    const sessionId = await t.pairByQr('paid', '15550006101')
    const response = await t.request('/v1/contact/check', jsonBody({ sessionId, phones: KNOWN }))
    expect(response.status).toBe(200)
    expect(response.headers.get('ratelimit-limit')).toBe('5000')
    expect(response.headers.get('ratelimit-remaining')).toBe('4997')
  })
})
