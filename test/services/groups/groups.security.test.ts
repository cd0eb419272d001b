import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryFile } from '../../support/sqlite-file'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

const ACCOUNT = '15550033001'
const OTHER_ACCOUNT = '15550033002'
const ANNA = '15551330001'
const BORIS = '15551330002'

/**
 * Groups across workspaces, under concurrent retries, and after the session is unlinked: another
 * workspace's group is 404 through the caller's own session, exactly like ids that do not exist
 * (another workspace's session: test/http/routes/v1/cross-workspace.security.test.ts); retries
 * land once; an unlinked session keeps no group of the account it was.
 */
describe('groups: isolation, concurrency, unlinking', () => {
  let t: SimulatedGateway
  let sessionId: string
  let group: string
  let other: { key: string; sessionId: string; group: string }

  const call = async (method: string, path: string, body?: unknown, key = t.key) => {
    const response = await t.request(path, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return { status: response.status, body: (await response.json()) as any }
  }
  const routes = (session: string, groupId: string) =>
    [
      ['GET', `/v1/group/all?sessionId=${session}`, undefined],
      ['GET', `/v1/group/${groupId}?sessionId=${session}`, undefined],
      ['POST', '/v1/group/create', { sessionId: session, subject: 'x', participants: [] }],
      ['PUT', `/v1/group/${groupId}`, { sessionId: session, subject: 'taken over' }],
      ['POST', `/v1/group/${groupId}/participants`, { sessionId: session, action: 'add', phones: [BORIS] }],
      ['GET', `/v1/group/${groupId}/invite?sessionId=${session}`, undefined],
      ['POST', `/v1/group/${groupId}/invite/revoke`, { sessionId: session }],
      ['POST', '/v1/group/join', { sessionId: session, inviteCode: 'AbCdEfGhIjKlMnOp' }],
      ['POST', `/v1/group/${groupId}/leave`, { sessionId: session }],
    ] as const

  beforeAll(async () => {
    t = await startSimulatedGateway()
    t.sim.addContact(ANNA)
    t.sim.addContact(BORIS)
    sessionId = await t.pairByQr('main', ACCOUNT)
    group = (await t.post('/v1/group/create', { sessionId, subject: 'Mine', participants: [ANNA] })).body.group.groupId
    const workspace = t.addWorkspace('other')
    const { sessionId: otherSession } = await t.linkSession({
      phone: OTHER_ACCOUNT,
      connect: { sessionName: 'theirs' },
      key: workspace.key,
    })
    const theirs = await call(
      'POST',
      '/v1/group/create',
      { sessionId: otherSession, subject: 'Theirs', participants: [ANNA] },
      workspace.key,
    )
    expect(theirs.status).toBe(200)
    other = { key: workspace.key, sessionId: otherSession, group: theirs.body.group.groupId }
  }, 60_000)
  afterAll(() => t.close())

  it('answers 404 for another workspace’s group through the caller’s own session, as for any group it is not in', async () => {
    for (const [method, path, body] of routes(sessionId, other.group)) {
      if (!path.includes(other.group)) continue
      const answer = await call(method, path, body)
      expect({ path, status: answer.status, error: answer.body.error }).toEqual({
        path,
        status: 404,
        error: 'not_found',
      })
      expect(answer.body.message).not.toContain('Theirs')
    }
    const list = await call('GET', `/v1/group/all?sessionId=${sessionId}`)
    expect(list.body.groups.map((g: any) => g.groupId)).toEqual([group])
  })

  it('lands concurrent retries once: one add, one leave', async () => {
    const adds = await Promise.all(
      Array.from({ length: 5 }, () =>
        call('POST', `/v1/group/${group}/participants`, { sessionId, action: 'add', phones: [BORIS] }),
      ),
    )
    expect(adds.map((a) => a.status)).toEqual([200, 200, 200, 200, 200])
    const statuses = adds.map((a) => a.body.results[0].status).sort()
    expect(statuses).toEqual([
      'added',
      'already_participant',
      'already_participant',
      'already_participant',
      'already_participant',
    ])
    const stored = queryFile<{ n: number }>(
      t.databasePath,
      'SELECT count(*) AS n FROM group_participants WHERE session_id = ? AND group_id = ? AND phone = ?',
      sessionId,
      group,
      BORIS,
    )
    expect(stored[0]!.n).toBe(1)

    const leaves = await Promise.all(
      Array.from({ length: 3 }, () => call('POST', `/v1/group/${group}/leave`, { sessionId })),
    )
    expect(leaves.map((l) => l.status).sort()).toEqual([200, 404, 404])
    expect(
      t.sim
        .group(group)
        .info()
        .participants.map((p) => p.phone),
    ).not.toContain(ACCOUNT)
    expect(t.sim.violations()).toEqual([])
  })

  it('keeps no group of the account once the session is logged out, or disconnected', async () => {
    const groupsOf = (id: string) =>
      queryFile<{ n: number }>(
        t.databasePath,
        'SELECT (SELECT count(*) FROM groups WHERE session_id = ?) + (SELECT count(*) FROM group_participants WHERE session_id = ?) AS n',
        id,
        id,
      )[0]!.n
    const kept = await call('POST', '/v1/group/create', { sessionId, subject: 'Kept', participants: [ANNA] })
    expect(kept.status).toBe(200)
    expect(groupsOf(sessionId)).toBeGreaterThan(0)
    t.sim.account(ACCOUNT).fault('logout')
    await t.waitForStatus(sessionId, 'logged_out')
    expect(groupsOf(sessionId)).toBe(0)

    expect(groupsOf(other.sessionId)).toBeGreaterThan(0)
    const disconnected = await call('DELETE', `/v1/session/disconnect/${other.sessionId}`, undefined, other.key)
    expect(disconnected.status).toBe(200)
    expect(groupsOf(other.sessionId)).toBe(0)
  })
})
