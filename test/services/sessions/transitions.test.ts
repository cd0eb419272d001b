import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { canTransition, transition, writeStatus } from '../../../src/services/sessions/transitions'
import { sessionById } from '../../../src/services/sessions/view'
import { startTestGateway, type TestGateway } from '../../support/gateway'
import { createSessionRow } from '../../support/session-row'
import { queryFile } from '../../support/sqlite-file'

describe('session transitions', () => {
  it('lets a client disconnect win over a late login', () => {
    expect(canTransition('pending', 'disconnected')).toBe(true)
    expect(canTransition('disconnected', 'connected')).toBe(false)
    expect(canTransition('expired', 'connected')).toBe(false)
    expect(canTransition('connected', 'connecting')).toBe(true)
    expect(canTransition('disconnected', 'pending')).toBe(true)
  })
})

describe('the one writer of a session’s status', () => {
  let t: TestGateway
  beforeAll(async () => {
    t = await startTestGateway()
  })
  afterAll(() => t.close())

  const ctx = () => t.gateway.context
  const row = (id: string) => sessionById(ctx().db, id)!
  const statusEvents = (id: string) =>
    queryFile<{ n: number }>(
      t.databasePath,
      "SELECT count(*) AS n FROM webhook_events WHERE session_id = ? AND type = 'session.status'",
      id,
    )[0]!.n
  // What claimSession (connect) writes through: the writer inside the caller's transaction.
  const writeInTransaction = (id: string, status: 'connecting' | 'logged_out') =>
    ctx().db.transaction((tx) => writeStatus(tx, ctx(), row(id), { status, reason: null }), { behavior: 'immediate' })

  it('refuses a change the table forbids through transition() and through connect’s writer, writing nothing', async () => {
    const id = createSessionRow(t, 'finished', 'disconnected')
    const disconnected = row(id)
    expect(transition(ctx(), id, { status: 'connected', reason: null })).toEqual({
      applied: false,
      session: disconnected,
    })
    expect(writeInTransaction(id, 'connecting')).toBeUndefined()
    expect(row(id)).toEqual(disconnected)
    expect(statusEvents(id)).toBe(0)

    // What the table allows is written, with its event: the count above could have moved.
    expect(transition(ctx(), id, { status: 'pending', reason: null })).toMatchObject({ applied: true, changed: true })
    expect(statusEvents(id)).toBe(1)
    const pending = row(id)

    expect(transition(ctx(), id, { status: 'logged_out', reason: 'device_removed' })).toMatchObject({ applied: false })
    expect(writeInTransaction(id, 'logged_out')).toBeUndefined()
    // connect on a name whose session is live re-pairs nothing.
    const connect = await t.request('/v1/session/connect', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionName: 'finished', webhookUrl: 'https://hooks.invalid/again' }),
    })
    expect(connect.status).toBe(409)
    expect(await connect.json()).toMatchObject({ error: 'session_name_taken', details: { status: 'pending' } })
    expect(row(id)).toEqual(pending)
    expect(statusEvents(id)).toBe(1)
  })
})
