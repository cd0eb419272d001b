import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pollUntil } from '../../support/poll'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

const ACCOUNT = '15550032001'
const ANNA = '15551320001'
const BORIS = '15551320002'

/**
 * What the groups API answers when something is wrong: a client's mistake is a 4xx naming it and
 * nothing reaches WhatsApp; an offline session is 409; WhatsApp not answering is 504; WhatsApp
 * refusing what the store allowed (a change it never notified) heals the store.
 */
describe('groups: errors', () => {
  let t: SimulatedGateway
  let sessionId: string
  let group: string

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await t.request(path, {
      method,
      ...(body === undefined
        ? {}
        : {
            headers: { 'content-type': 'application/json' },
            body: typeof body === 'string' ? body : JSON.stringify(body),
          }),
    })
    return { status: response.status, body: (await response.json()) as any }
  }
  /** Every group route, for the given session and group id. */
  const everyRoute = (session: string, groupId: string) =>
    [
      ['GET', `/v1/group/all?sessionId=${session}`, undefined],
      ['GET', `/v1/group/${groupId}?sessionId=${session}`, undefined],
      ['POST', '/v1/group/create', { sessionId: session, subject: 'x', participants: [ANNA] }],
      ['PUT', `/v1/group/${groupId}`, { sessionId: session, subject: 'x' }],
      ['POST', `/v1/group/${groupId}/participants`, { sessionId: session, action: 'add', phones: [BORIS] }],
      ['GET', `/v1/group/${groupId}/invite?sessionId=${session}`, undefined],
      ['POST', `/v1/group/${groupId}/invite/revoke`, { sessionId: session }],
      ['POST', '/v1/group/join', { sessionId: session, inviteCode: 'AbCdEfGhIjKlMnOp' }],
      ['POST', `/v1/group/${groupId}/leave`, { sessionId: session }],
    ] as const

  beforeAll(async () => {
    t = await startSimulatedGateway({ config: { queryTimeoutMs: 1_000 } })
    t.sim.addContact(ANNA)
    t.sim.addContact(BORIS)
    sessionId = await t.pairByQr('main', ACCOUNT)
    const created = await t.post('/v1/group/create', { sessionId, subject: 'Errors', participants: [ANNA] })
    expect(created.status).toBe(200)
    group = created.body.group.groupId
  }, 60_000)
  afterAll(() => t.close())

  it('answers 400 for a group id that is not one, on every route that takes one, and asks WhatsApp nothing', async () => {
    const iqs = t.sim.stats()[ACCOUNT]!.iqs
    const bad = [
      'abc',
      '12345',
      `${ACCOUNT}@s.whatsapp.net`,
      '1-2-3@g.us',
      `${'1'.repeat(30)}@g.us`,
      `${'9'.repeat(5000)}@g.us`,
      '%00%40g.us',
      'x@g.us',
    ]
    for (const groupId of bad) {
      for (const [method, path, body] of everyRoute(sessionId, encodeURIComponent(groupId))) {
        if (!path.includes(encodeURIComponent(groupId))) continue
        const answer = await call(method, path, body)
        expect({ groupId: groupId.slice(0, 40), path: path.slice(0, 60), status: answer.status }).toMatchObject({
          status: 400,
        })
        expect(answer.body.error).toBe('validation_error')
        expect(JSON.stringify(answer.body).length).toBeLessThan(1_000)
      }
    }
    expect(t.sim.stats()[ACCOUNT]!.iqs).toBe(iqs)
  })

  it('answers 400 for bad phones, subjects, descriptions, actions and links, naming the field', async () => {
    const iqs = t.sim.stats()[ACCOUNT]!.iqs
    const participants = (phones: unknown, action = 'add') =>
      call('POST', `/v1/group/${group}/participants`, { sessionId, action, phones })
    const cases: [string, Promise<{ status: number; body: any }>, string][] = [
      ['letters', participants(['abc']), 'phones.0'],
      ['too short', participants(['12345']), 'phones.0'],
      ['a number', participants([15551320002]), 'phones.0'],
      ['none', participants([]), 'phones'],
      ['not a list', participants('15551320002'), 'phones'],
      [
        'too many',
        participants(Array.from({ length: 257 }, (_, i) => `1555000${String(i).padStart(4, '0')}`)),
        'phones',
      ],
      ['its own number', participants([`+${ACCOUNT}`], 'remove'), 'phones.0'],
      ['an action WhatsApp has not', participants([ANNA], 'kick'), 'action'],
      [
        'creating with its own number',
        call('POST', '/v1/group/create', { sessionId, subject: 'x', participants: [ANNA, ACCOUNT] }),
        'participants.1',
      ],
      ['a blank subject', call('POST', '/v1/group/create', { sessionId, subject: '   ', participants: [] }), 'subject'],
      ['a long subject', call('PUT', `/v1/group/${group}`, { sessionId, subject: 's'.repeat(101) }), 'subject'],
      [
        'a long description',
        call('PUT', `/v1/group/${group}`, { sessionId, description: 'd'.repeat(2049) }),
        'description',
      ],
      ['nothing to change', call('PUT', `/v1/group/${group}`, { sessionId }), '(body)'],
      ['an unknown field', call('PUT', `/v1/group/${group}`, { sessionId, subject: 'x', owner: ANNA }), '(body)'],
      ['no code', call('POST', '/v1/group/join', { sessionId }), '(body)'],
      [
        'code and link',
        call('POST', '/v1/group/join', {
          sessionId,
          inviteCode: 'AbCdEfGhIjKl',
          link: 'https://chat.whatsapp.com/AbCdEfGhIjKl',
        }),
        '(body)',
      ],
      [
        'another site',
        call('POST', '/v1/group/join', { sessionId, link: 'https://evil.example/AbCdEfGhIjKl' }),
        'link',
      ],
      [
        'a code with symbols',
        call('POST', '/v1/group/join', { sessionId, inviteCode: 'abc/../def?x=1' }),
        'inviteCode',
      ],
      ['malformed JSON', call('POST', '/v1/group/create', '{"sessionId": '), '(body)'],
    ]
    for (const [what, answer, path] of cases) {
      const { status, body } = await answer
      expect({ what, status, error: body.error }).toEqual({ what, status: 400, error: 'validation_error' })
      expect({ what, paths: body.details.fields.map((f: any) => f.path) }).toMatchObject({
        what,
        paths: expect.arrayContaining([path]),
      })
    }
    expect(t.sim.stats()[ACCOUNT]!.iqs).toBe(iqs)
    expect(t.sim.violations()).toEqual([])
  })

  it('refuses subjects and descriptions that hide or rewrite what members are shown, naming the field', async () => {
    const iqs = t.sim.stats()[ACCOUNT]!.iqs
    const create = (subject: string) => call('POST', '/v1/group/create', { sessionId, subject, participants: [ANNA] })
    const update = (change: Record<string, unknown>) => call('PUT', `/v1/group/${group}`, { sessionId, ...change })
    const cases: [string, Promise<{ status: number; body: any }>, string, RegExp][] = [
      ['a NUL in a new subject', create('Team\u0000'), 'subject', /control characters/],
      ['a newline in a subject', update({ subject: 'Team\nTwo' }), 'subject', /control characters/],
      ['an ANSI escape in a subject', update({ subject: '\u001b[31mTeam' }), 'subject', /control characters/],
      ['a right-to-left override in a subject', create('invoice\u202Efdp.exe'), 'subject', /bidirectional/],
      ['an isolate in a subject', update({ subject: 'Team\u2066x' }), 'subject', /bidirectional/],
      ['an unpaired surrogate in a subject', update({ subject: 'Team\ud800' }), 'subject', /surrogates/],
      ['nothing visible in a subject', update({ subject: '\u200b\u200d' }), 'subject', /visible/],
      ['a NUL in a description', update({ description: 'About\u0000' }), 'description', /control characters/],
      ['a carriage return in a description', update({ description: 'a\r\nb' }), 'description', /control/],
      ['a C1 control in a description', update({ description: 'a\u0085b' }), 'description', /control/],
      ['an override in a description', update({ description: 'a\nb\u202Ec' }), 'description', /bidirectional/],
      ['an unpaired surrogate in a description', update({ description: '\udc00' }), 'description', /surrogates/],
      ['nothing visible in a description', update({ description: '\u200b \n ' }), 'description', /visible/],
    ]
    for (const [what, answer, path, rule] of cases) {
      const { status, body } = await answer
      expect({ what, status, error: body.error }).toEqual({ what, status: 400, error: 'validation_error' })
      const field = body.details.fields.find((f: any) => f.path === path)
      expect({ what, message: field?.message }).toEqual({ what, message: expect.stringMatching(rule) })
    }
    expect(t.sim.stats()[ACCOUNT]!.iqs).toBe(iqs)
    expect(t.sim.group(group).info()).toMatchObject({ subject: 'Errors', description: undefined })
  })

  it('refuses a body bigger than the limit with 413, never a 500', async () => {
    const { status, body } = await call('PUT', `/v1/group/${group}`, {
      sessionId,
      description: 'd'.repeat(2 * 1024 * 1024),
    })
    expect([status, body.error]).toEqual([413, 'payload_too_large'])
  })

  it('answers 404 for a group the account is not in, and for an invite code no group has', async () => {
    const elsewhere = t.sim.createGroup('Not mine', [ANNA, BORIS], ANNA).jid
    const iqs = t.sim.stats()[ACCOUNT]!.iqs
    for (const [method, path, body] of everyRoute(sessionId, elsewhere)) {
      if (!path.includes(elsewhere)) continue
      const answer = await call(method, path, body)
      expect({ path, status: answer.status, error: answer.body.error }).toEqual({
        path,
        status: 404,
        error: 'not_found',
      })
    }
    expect(t.sim.stats()[ACCOUNT]!.iqs).toBe(iqs)
    const join = await call('POST', '/v1/group/join', { sessionId, inviteCode: 'NoGroupHasThisCode' })
    expect([join.status, join.body.error, join.body.message]).toEqual([
      404,
      'not_found',
      'No group has this invite code',
    ])
  })

  it('when WhatsApp refuses what the store allowed (a change never notified), answers as WhatsApp did and heals the store', async () => {
    // Anna adds the account and makes it an admin (notified), then demotes it and that notification is lost
    const stale = t.sim.createGroup('Stale', [ANNA], ANNA).jid
    t.sim.group(stale).by(ANNA).participants('add', [ACCOUNT])
    t.sim.group(stale).by(ANNA).participants('promote', [ACCOUNT])
    await pollUntil(
      async () => (await call('GET', `/v1/group/${stale}?sessionId=${sessionId}`)).body.isAdmin,
      (isAdmin) => isAdmin === true,
    )
    t.sim.group(stale).by(ANNA, { notify: false }).participants('demote', [ACCOUNT])
    expect((await call('GET', `/v1/group/${stale}?sessionId=${sessionId}`)).body.isAdmin).toBe(true)
    const refused = await call('PUT', `/v1/group/${stale}`, { sessionId, announce: true })
    expect([refused.status, refused.body.error]).toEqual([403, 'forbidden'])
    expect(t.sim.group(stale).info().announce).toBe(false)
    // Read again from WhatsApp: the next attempt is refused before asking it
    await pollUntil(
      async () => (await call('GET', `/v1/group/${stale}?sessionId=${sessionId}`)).body.isAdmin,
      (isAdmin) => isAdmin === false,
    )
    const iqs = t.sim.stats()[ACCOUNT]!.iqs
    expect((await call('PUT', `/v1/group/${stale}`, { sessionId, announce: true })).status).toBe(403)
    expect(t.sim.stats()[ACCOUNT]!.iqs).toBe(iqs)

    // Removed without a word: WhatsApp's 403 forbidden is 404, and the group leaves the store
    t.sim.group(stale).by(ANNA).participants('promote', [ACCOUNT])
    await pollUntil(
      async () => (await call('GET', `/v1/group/${stale}?sessionId=${sessionId}`)).body.isAdmin,
      (isAdmin) => isAdmin === true,
    )
    t.sim.group(stale).by(ANNA, { notify: false }).participants('remove', [ACCOUNT])
    const gone = await call('POST', `/v1/group/${stale}/participants`, { sessionId, action: 'add', phones: [BORIS] })
    expect([gone.status, gone.body.error]).toEqual([404, 'not_found'])
    expect(
      (await call('GET', `/v1/group/all?sessionId=${sessionId}`)).body.groups.map((g: any) => g.groupId),
    ).not.toContain(stale)
    expect((await call('GET', `/v1/group/${stale}?sessionId=${sessionId}`)).status).toBe(404)
  })

  it('answers 504 when WhatsApp does not answer, and changes nothing', async () => {
    const created = await t.post('/v1/group/create', { sessionId, subject: 'Slow', participants: [ANNA] })
    const slow = created.body.group.groupId as string
    t.sim.account(ACCOUNT).fault('unresponsive')
    try {
      const answer = await call('POST', `/v1/group/${slow}/participants`, { sessionId, action: 'add', phones: [BORIS] })
      expect([answer.status, answer.body.error]).toEqual([504, 'upstream_timeout'])
    } finally {
      t.sim.account(ACCOUNT).clearFaults()
    }
    const info = await call('GET', `/v1/group/${slow}?sessionId=${sessionId}`)
    expect(info.body.participants.map((p: any) => p.phone)).toEqual([ACCOUNT, ANNA])
  })

  it('answers 409 session_not_connected on every route while the session is offline', async () => {
    t.sim.account(ACCOUNT).fault('unreachable')
    await t.waitForStatus(sessionId, 'connecting')
    try {
      for (const [method, path, body] of everyRoute(sessionId, group)) {
        const answer = await call(method, path, body)
        expect({ path, status: answer.status, error: answer.body.error }).toEqual({
          path,
          status: 409,
          error: 'session_not_connected',
        })
      }
    } finally {
      t.sim.account(ACCOUNT).clearFaults()
    }
    await t.waitForStatus(sessionId, 'connected')
    expect((await call('GET', `/v1/group/all?sessionId=${sessionId}`)).status).toBe(200)
  })
})
