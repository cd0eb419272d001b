import { parseResponse } from 'hono/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { answerOf } from '../../support/client'
import { pollUntil } from '../../support/poll'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import {
  fastWebhooks,
  loopbackWebhooks,
  startWebhookReceiver,
  type WebhookEvent,
  type WebhookReceiver,
} from '../../support/webhook-receiver'

const ACCOUNT = '15550031001'
const SECOND = '15550031002'
const ANNA = '15551310001'
const BORIS = '15551310002'
const PRIVATE = '15551310003'
const NOBODY = '15551319999'

/**
 * The groups API end to end: the real Baileys client against the simulator as WhatsApp (its
 * group iqs and w:gp2 notifications), a local webhook receiver verifying every signature.
 */
describe('groups of a session', () => {
  let t: SimulatedGateway
  let receiver: WebhookReceiver
  let sessionId: string
  let secret: string
  let secondId: string
  let secondSecret: string
  let existing: string
  let team: string

  const connect = async (name: string, phone: string, webhookMessages = true) => {
    const linked = await t.linkSession({
      phone,
      connect: { sessionName: name, webhookUrl: receiver.url(name), webhookMessages },
    })
    return { id: linked.sessionId, secret: linked.webhookSecret }
  }
  /** The group as `id`'s session sees it (GET /v1/group/{groupId}, typed); throws unless 200. */
  const groupOf = (id: string, groupId: string) =>
    parseResponse(t.api.v1.group[':groupId'].$get({ param: { groupId }, query: { sessionId: id } }))
  const groupEvents = (name: string, key: string) => receiver.events(name, key).filter(isGroupEvent)
  /**
   * The group queries (w:g2) an account's device made so far, by kind. Only these: Baileys asks
   * other things on its own after a login (app state, prekeys), whenever it gets to them.
   */
  const groupQueries = (phone: string) =>
    Object.entries(t.sim.stats()[phone]!.iqsBy).filter(([kind]) => kind.startsWith('w:g2'))
  const isGroupEvent = (event: WebhookEvent) => event.type.startsWith('group.')
  const waitForGroupEvents = async (name: string, key: string, done: (events: WebhookEvent[]) => boolean) =>
    (await receiver.waitFor(name, key, (all) => done(all.filter(isGroupEvent)))).filter(isGroupEvent)

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    t = await startSimulatedGateway({ plan: 'paid', config: { ...loopbackWebhooks, webhooks: fastWebhooks() } })
    for (const phone of [ANNA, BORIS, PRIVATE]) t.sim.addContact(phone)
    t.sim.setGroupAddPrivacy(PRIVATE, 'none')
    ;({ id: sessionId, secret } = await connect('main', ACCOUNT))
    // Made without telling the account's device: only the next login's one query finds it
    existing = t.sim.createGroup('Existing', [ANNA, ACCOUNT], ANNA).jid
    expect((await t.post(`/v1/session/${sessionId}/restart`, {})).status).toBe(200)
    await t.waitForStatus(sessionId, 'connected')
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await receiver.close()
  })

  it('lists the groups the account is in from the store filled at login', async () => {
    const { status, body } = await t.get(`/v1/group/all?sessionId=${sessionId}`)
    expect(status).toBe(200)
    expect(body.groups).toEqual([
      {
        groupId: existing,
        subject: 'Existing',
        size: 2,
        isAdmin: true,
        announce: false,
        restrict: false,
        createdAt: expect.stringMatching(/^\d{4}-/),
      },
    ])
    expect(await groupOf(sessionId, existing)).toMatchObject({
      groupId: existing,
      description: null,
      owner: { phone: ANNA, lid: `${t.sim.contact(ANNA).lid}@lid` },
      participants: [
        { phone: ANNA, lid: `${t.sim.contact(ANNA).lid}@lid`, admin: 'superadmin' },
        { phone: ACCOUNT, lid: `${t.sim.account(ACCOUNT).lid}@lid`, admin: 'admin' },
      ],
    })
  })

  it('follows changes another member makes, from the notifications alone', async () => {
    const before = groupQueries(ACCOUNT)
    t.sim.group(existing).by(ANNA).setSubject('Renamed by Anna')
    t.sim.group(existing).by(ANNA).participants('add', [BORIS])
    t.sim.group(existing).by(ANNA).participants('demote', [ACCOUNT])
    const info = await pollUntil(
      async () => groupOf(sessionId, existing),
      (group) => group.subject === 'Renamed by Anna' && group.size === 3 && group.isAdmin === false,
      { what: 'the store to follow Anna’s changes' },
    )
    expect(info.participants.map((p) => [p.phone, p.admin])).toEqual([
      [ANNA, 'superadmin'],
      [ACCOUNT, null],
      [BORIS, null],
    ])
    // Read from the store: WhatsApp was asked nothing about the group
    expect(groupQueries(ACCOUNT)).toEqual(before)
    const events = await waitForGroupEvents('main', secret, (list) => list.length >= 3)
    const anna = { phone: ANNA, lid: `${t.sim.contact(ANNA).lid}@lid` }
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['group.updated', { groupId: existing, subject: 'Renamed by Anna', by: anna }],
      [
        'group.participants',
        {
          groupId: existing,
          action: 'added',
          participants: [{ phone: BORIS, lid: `${t.sim.contact(BORIS).lid}@lid` }],
          reason: null,
          by: anna,
        },
      ],
      [
        'group.participants',
        {
          groupId: existing,
          action: 'demoted',
          participants: [{ phone: ACCOUNT, lid: `${t.sim.account(ACCOUNT).lid}@lid` }],
          reason: null,
          by: anna,
        },
      ],
    ])
  })

  it('creates a group: each participant gets its result, the refused ones are not in it', async () => {
    const { status, body } = await t.post('/v1/group/create', {
      sessionId,
      subject: '  Team  ',
      participants: [`+${ANNA.slice(0, 1)} ${ANNA.slice(1, 4)}-${ANNA.slice(4)}`, PRIVATE, NOBODY, ANNA],
    })
    expect(status).toBe(200)
    team = body.group.groupId
    expect(team).toMatch(/^\d+@g\.us$/)
    expect(body.group).toMatchObject({
      subject: 'Team',
      size: 2,
      isAdmin: true,
      owner: { phone: ACCOUNT },
      participants: [
        { phone: ACCOUNT, admin: 'superadmin' },
        { phone: ANNA, admin: null },
      ],
    })
    expect(body.participants).toEqual([
      { phone: `+1 ${ANNA.slice(1, 4)}-${ANNA.slice(4)}`, status: 'added', code: 200 },
      {
        phone: PRIVATE,
        status: 'privacy_refused',
        code: 403,
        invite: { code: expect.stringMatching(/^[A-Za-z0-9]+$/), expiresAt: expect.stringMatching(/^\d{4}-/) },
      },
      { phone: NOBODY, status: 'not_on_whatsapp', code: 404 },
      { phone: ANNA, status: 'added', code: 200 },
    ])
    expect(
      t.sim
        .group(team)
        .info()
        .participants.map((p) => p.phone),
    ).toEqual([ACCOUNT, ANNA])
    // In the store at once; group.joined follows from WhatsApp's create notification
    expect((await groupOf(sessionId, team)).subject).toBe('Team')
    const events = await waitForGroupEvents('main', secret, (list) => list.some((e) => e.type === 'group.joined'))
    expect(events.find((e) => e.type === 'group.joined')?.data).toEqual({
      groupId: team,
      subject: 'Team',
      reason: 'created',
      by: { phone: ACCOUNT, lid: `${t.sim.account(ACCOUNT).lid}@lid` },
    })
  })

  it('adds, promotes, demotes and removes, with WhatsApp’s result for each phone', async () => {
    const act = async (action: 'add' | 'remove' | 'promote' | 'demote', phones: string[]) => {
      const body = await parseResponse(
        t.api.v1.group[':groupId'].participants.$post({
          param: { groupId: team },
          json: { sessionId, action, phones },
        }),
      )
      expect(body).toMatchObject({ groupId: team, action })
      return body.results.map((r) => [r.phone, r.status, r.code])
    }
    expect(await act('add', [BORIS, ANNA, PRIVATE])).toEqual([
      [BORIS, 'added', 200],
      [ANNA, 'already_participant', 409],
      [PRIVATE, 'privacy_refused', 403],
    ])
    expect((await groupOf(sessionId, team)).size).toBe(3)
    // The same number twice, however written, is asked of WhatsApp once and answered as sent
    const borisWritten = `+1 (${BORIS.slice(1, 4)}) ${BORIS.slice(4, 7)}.${BORIS.slice(7)}`
    expect(await act('promote', [BORIS, NOBODY, borisWritten])).toEqual([
      [BORIS, 'promoted', 200],
      [NOBODY, 'not_participant', 404],
      [borisWritten, 'promoted', 200],
    ])
    expect((await groupOf(sessionId, team)).participants.find((p) => p.phone === BORIS)?.admin).toBe('admin')
    expect(await act('demote', [BORIS])).toEqual([[BORIS, 'demoted', 200]])
    expect(await act('remove', [BORIS, PRIVATE])).toEqual([
      [BORIS, 'removed', 200],
      [PRIVATE, 'not_participant', 404],
    ])
    expect((await groupOf(sessionId, team)).participants.map((p) => p.phone)).toEqual([ACCOUNT, ANNA])
    expect(
      t.sim
        .group(team)
        .info()
        .participants.map((p) => p.phone),
    ).toEqual([ACCOUNT, ANNA])
  })

  it('sends to a group from the store: no metadata query, and a participant added through the API gets it', async () => {
    await t.post(`/v1/group/${team}/participants`, { sessionId, action: 'add', phones: [BORIS] })
    const queries = t.sim.stats()[ACCOUNT]!.groupMetadataQueries
    for (const text of ['hello team', 'and again']) {
      const sent = await t.post('/v1/message/text', { sessionId, phone: team, message: text })
      expect(sent.status).toBe(200)
      for (const member of [ANNA, BORIS]) {
        const received = await t.sim.contact(member).waitForMessage((m) => m.id === sent.body.messageId)
        expect(received.chat).toBe(team)
      }
    }
    expect(t.sim.stats()[ACCOUNT]!.groupMetadataQueries).toBe(queries)
    expect(t.sim.violations()).toEqual([])
  })

  it('changes subject, description and settings; every member sees them', async () => {
    // Its message events are off: group events are not message events, they still arrive
    ;({ id: secondId, secret: secondSecret } = await connect('second', SECOND, false))
    const body = await parseResponse(
      t.api.v1.group[':groupId'].$put({
        param: { groupId: team },
        json: { sessionId, subject: 'Team two', description: 'What we do\nand how', announce: true, restrict: true },
      }),
    )
    expect(body).toMatchObject({
      subject: 'Team two',
      description: 'What we do\nand how',
      announce: true,
      restrict: true,
    })
    expect(t.sim.group(team).info()).toMatchObject({
      subject: 'Team two',
      description: 'What we do\nand how',
      announce: true,
      restrict: true,
    })
    const me = { phone: ACCOUNT, lid: `${t.sim.account(ACCOUNT).lid}@lid` }
    const events = await waitForGroupEvents(
      'main',
      secret,
      (list) => list.filter((e) => e.data.groupId === team && e.type === 'group.updated').length >= 4,
    )
    expect(events.filter((e) => e.data.groupId === team && e.type === 'group.updated').map((e) => e.data)).toEqual([
      { groupId: team, subject: 'Team two', by: me },
      { groupId: team, description: 'What we do\nand how', by: me },
      { groupId: team, announce: true, by: me },
      { groupId: team, restrict: true, by: me },
    ])
    const cleared = await parseResponse(
      t.api.v1.group[':groupId'].$put({ param: { groupId: team }, json: { sessionId, description: null } }),
    )
    expect(cleared.description).toBeNull()
    expect(t.sim.group(team).info().description).toBeUndefined()
  })

  it('invite link round trip: a second account joins by the link and appears in group.participants', async () => {
    const invite = await t.get(`/v1/group/${team}/invite?sessionId=${sessionId}`)
    expect(invite.status).toBe(200)
    expect(invite.body.inviteLink).toBe(`https://chat.whatsapp.com/${invite.body.inviteCode}`)
    const joined = await parseResponse(
      t.api.v1.group.join.$post({ json: { sessionId: secondId, link: invite.body.inviteLink } }),
    )
    expect(joined).toMatchObject({ groupId: team, subject: 'Team two', isAdmin: false, announce: true })
    expect(joined.participants.map((p) => p.phone)).toContain(SECOND)
    const second = { phone: SECOND, lid: `${t.sim.account(SECOND).lid}@lid` }
    const seen = await waitForGroupEvents('main', secret, (list) =>
      list.some((e) => e.type === 'group.participants' && e.data.participants[0]?.phone === SECOND),
    )
    expect(seen.find((e) => e.type === 'group.participants' && e.data.participants[0]?.phone === SECOND)?.data).toEqual(
      {
        groupId: team,
        action: 'added',
        participants: [second],
        reason: 'invite',
        by: second,
      },
    )
    expect((await t.listSessions()).find((s) => s.sessionId === secondId)?.webhookMessages).toBe(false)
    const own = await waitForGroupEvents('second', secondSecret, (list) => list.some((e) => e.type === 'group.joined'))
    expect(own.find((e) => e.type === 'group.joined')?.data).toEqual({
      groupId: team,
      subject: 'Team two',
      reason: 'invite',
      by: second,
    })
    // The first session's store follows too
    await pollUntil(
      async () => (await groupOf(sessionId, team)).participants.map((p) => p.phone),
      (phones) => phones.includes(SECOND),
    )
    // A change the admin makes now reaches the new member's store and webhook
    const renamed = await t.request(`/v1/group/${team}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId, subject: 'Team three' }),
    })
    expect(renamed.status).toBe(200)
    await pollUntil(
      async () => (await groupOf(secondId, team)).subject,
      (subject) => subject === 'Team three',
    )
    const updates = await waitForGroupEvents('second', secondSecret, (list) =>
      list.some((e) => e.type === 'group.updated'),
    )
    expect(updates.find((e) => e.type === 'group.updated')?.data).toEqual({
      groupId: team,
      subject: 'Team three',
      by: { phone: ACCOUNT, lid: `${t.sim.account(ACCOUNT).lid}@lid` },
    })
    // A reset link stops working
    const reset = await t.post(`/v1/group/${team}/invite/revoke`, { sessionId })
    expect(reset.status).toBe(200)
    expect(reset.body.inviteCode).not.toBe(invite.body.inviteCode)
    const stale = await t.post('/v1/group/join', { sessionId: secondId, inviteCode: invite.body.inviteCode })
    expect(stale.status).toBe(404)
  })

  it('a member who is not an admin is refused admin-only actions with 403, before WhatsApp is asked', async () => {
    const before = groupQueries(SECOND)
    const settings = await answerOf(
      t.api.v1.group[':groupId'].$put({ param: { groupId: team }, json: { sessionId: secondId, announce: false } }),
    )
    expect(settings).toMatchObject({ status: 403, body: { error: 'forbidden' } })
    for (const action of ['add', 'remove', 'promote', 'demote']) {
      const r = await t.post(`/v1/group/${team}/participants`, { sessionId: secondId, action, phones: [ANNA] })
      expect([r.status, r.body.error]).toEqual([403, 'forbidden'])
    }
    const invite = await t.get(`/v1/group/${team}/invite?sessionId=${secondId}`)
    expect([invite.status, invite.body.error]).toEqual([403, 'forbidden'])
    const revoke = await t.post(`/v1/group/${team}/invite/revoke`, { sessionId: secondId })
    expect(revoke.status).toBe(403)
    // Restricted group: a member's rename is an admin-only action too
    const rename = await t.request(`/v1/group/${team}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId: secondId, subject: 'mine' }),
    })
    expect(rename.status).toBe(403)
    expect(groupQueries(SECOND)).toEqual(before)
    expect(t.sim.group(team).info().subject).toBe('Team three')
  })

  it('leaves: group.left for the leaver, group.participants for the others, out of both stores', async () => {
    const { status, body } = await t.post(`/v1/group/${team}/leave`, { sessionId: secondId })
    expect([status, body]).toEqual([200, { groupId: team, left: true }])
    expect((await t.get(`/v1/group/${team}?sessionId=${secondId}`)).status).toBe(404)
    const second = { phone: SECOND, lid: `${t.sim.account(SECOND).lid}@lid` }
    const own = await waitForGroupEvents('second', secondSecret, (list) => list.some((e) => e.type === 'group.left'))
    expect(own.find((e) => e.type === 'group.left')?.data).toEqual({ groupId: team, reason: 'left', by: second })
    const seen = await waitForGroupEvents('main', secret, (list) =>
      list.some(
        (e) =>
          e.type === 'group.participants' && e.data.action === 'removed' && e.data.participants[0]?.phone === SECOND,
      ),
    )
    expect(seen.at(-1)?.data).toEqual({
      groupId: team,
      action: 'removed',
      participants: [second],
      reason: null,
      by: second,
    })
    await pollUntil(
      async () => (await groupOf(sessionId, team)).participants.map((p) => p.phone),
      (phones) => !phones.includes(SECOND),
    )
  })

  it('delivers every group event in order, signed, with consecutive sequences', async () => {
    const all = receiver.events('main', secret)
    expect(all.map((e) => e.sequence)).toEqual(all.map((_, i) => i + 1))
    const team$ = groupEvents('main', secret).filter((e) => e.data.groupId === team)
    expect(
      team$.map(
        (e) =>
          `${e.type}:${e.data.action ?? e.data.reason ?? Object.keys(e.data).find((k) => k !== 'groupId' && k !== 'by')}`,
      ),
    ).toEqual([
      'group.joined:created',
      'group.participants:added',
      'group.participants:promoted',
      'group.participants:demoted',
      'group.participants:removed',
      'group.participants:added',
      'group.updated:subject',
      'group.updated:description',
      'group.updated:announce',
      'group.updated:restrict',
      'group.updated:description',
      'group.participants:added',
      'group.updated:subject',
      'group.participants:removed',
    ])
    expect(t.sim.violations()).toEqual([])
  })
})
