import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeDatabase, type GatewayDatabase, openDatabase } from '../../../src/db/database'
import { historyChunks, labelChats, labels, presenceSubscriptions } from '../../../src/db/schema'
import { assembleGateway, type Gateway } from '../../../src/gateway'
import { silentLogger } from '../../../src/logger'
import { createApiKey } from '../../../src/services/api-keys'
import { rememberPushName } from '../../../src/services/contacts/names'
import type { GatewayContext } from '../../../src/services/context'
import { putGroup } from '../../../src/services/groups/store'
import { canTransition, transition, writeStatus } from '../../../src/services/sessions/transitions'
import { sessionById } from '../../../src/services/sessions/view'
import { createWorkspace } from '../../../src/services/workspaces'
import { insertSessionRow } from '../../support/session-row'
import { queryFile } from '../../support/sqlite-file'
import { tempDir } from '../../support/temp-dir'

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
  // assembleGateway, not startTestGateway: the writer and the hooks need the whole service context.
  const dir = tempDir()
  const databasePath = join(dir.path, 'gateway.db')
  let database: GatewayDatabase
  let gateway: Gateway
  let context: GatewayContext
  let workspaceId: string
  let key: string
  beforeAll(async () => {
    database = await openDatabase(databasePath)
    ;({ gateway, context } = assembleGateway({ database, logger: silentLogger() }))
    await gateway.start()
    workspaceId = createWorkspace(context, { name: 'test', plan: 'free' }).id
    key = createApiKey(context, { workspace: workspaceId }).key
  })
  afterAll(async () => {
    await gateway.stop()
    closeDatabase(database)
    dir.cleanup()
  })

  const ctx = () => context
  const request = (path: string, init: RequestInit = {}) =>
    Promise.resolve(
      gateway.app.request(path, { ...init, headers: { ...init.headers, authorization: `Bearer ${key}` } }),
    )
  const sessionRow = (name: string, status: 'disconnected' | 'expired') =>
    insertSessionRow(context.db, workspaceId, name, status)
  const row = (id: string) => sessionById(ctx().db, id)!
  const statusEvents = (id: string) =>
    queryFile<{ n: number }>(
      databasePath,
      "SELECT count(*) AS n FROM webhook_events WHERE session_id = ? AND type = 'session.status'",
      id,
    )[0]!.n
  // What claimSession (connect) writes through: the writer inside the caller's transaction.
  const writeInTransaction = (id: string, status: 'connecting' | 'logged_out') =>
    ctx().db.transaction((tx) => writeStatus(tx, ctx(), row(id), { status, reason: null }), { behavior: 'immediate' })

  it('refuses a change the table forbids through transition() and through connect’s writer, writing nothing', async () => {
    const id = sessionRow('finished', 'disconnected')
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
    const connect = await request('/v1/session/connect', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionName: 'finished', webhookUrl: 'https://hooks.invalid/again' }),
    })
    expect(connect.status).toBe(409)
    expect(await connect.json()).toMatchObject({ error: 'session_name_taken', details: { status: 'pending' } })
    expect(row(id)).toEqual(pending)
    expect(statusEvents(id)).toBe(1)
  })

  it('runs the unlink hooks the context registers (groups, contact names, history chunks, presence subscriptions, labels) once a session is not live, not before', async () => {
    const id = sessionRow('linked', 'expired')
    transition(ctx(), id, { status: 'pending', reason: null })
    const kept = (
      table: 'groups' | 'contact_names' | 'history_chunks' | 'presence_subscriptions' | 'labels' | 'label_chats',
    ) => queryFile<{ n: number }>(databasePath, `SELECT count(*) AS n FROM ${table} WHERE session_id = ?`, id)[0]!.n
    const now = new Date()
    putGroup(
      ctx().db,
      id,
      {
        jid: '120363000000000001@g.us',
        subject: 'Team',
        announce: false,
        restrict: false,
        memberAddMode: false,
        addressingMode: 'pn',
        participants: [],
      },
      now,
    )
    rememberPushName(ctx(), id, { phone: '15550000001' }, 'Anna', now)
    ctx()
      .db.insert(historyChunks)
      .values({
        sessionId: id,
        id: '3A0000000000000001',
        syncType: 'recent',
        chunkOrder: 1,
        progress: 50,
        notification: Buffer.alloc(0),
        state: 'done',
        createdAt: now,
        updatedAt: now,
      })
      .run()
    ctx()
      .db.insert(presenceSubscriptions)
      .values({ sessionId: id, jid: '15550000001@s.whatsapp.net', createdAt: now })
      .run()
    ctx()
      .db.insert(labels)
      .values({ sessionId: id, id: '1', name: 'Paid', color: 5, createdAt: now, updatedAt: now })
      .run()
    ctx().db.insert(labelChats).values({ sessionId: id, labelId: '1', chat: '15550000001', createdAt: now }).run()
    expect(ctx().unlinkHooks).toHaveLength(5)

    // Still live (a pairing's restart): nothing forgotten.
    expect(transition(ctx(), id, { status: 'connecting', reason: 'restart_required' })).toMatchObject({ applied: true })
    const all = () =>
      (['groups', 'contact_names', 'history_chunks', 'presence_subscriptions', 'labels', 'label_chats'] as const).map(
        kept,
      )
    expect(all()).toEqual([1, 1, 1, 1, 1, 1])

    const deleted = await request(`/v1/session/disconnect/${id}`, { method: 'DELETE' })
    expect(deleted.status).toBe(200)
    expect(all()).toEqual([0, 0, 0, 0, 0, 0])
  })
})
