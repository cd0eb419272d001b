import { afterEach, describe, expect, it } from 'vitest'
import { startTestGateway, type TestGateway } from '../../support/gateway'
import { queryFile, writeFileElsewhere } from '../../support/sqlite-file'

/** The gateway keeps each workspace's session list in memory; these pin down that it never serves a stale one. */
describe('session list cache', () => {
  const open: TestGateway[] = []
  afterEach(async () => {
    for (const t of open.splice(0).reverse()) await t.close()
  })
  const start = async () => {
    const t = await startTestGateway()
    open.push(t)
    return t
  }
  const names = async (t: TestGateway, key = t.key) => {
    const response = await t.request('/v1/session/all', { headers: { authorization: `Bearer ${key}` } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    return ((await response.json()) as { sessions: { sessionName: string; status: string }[] }).sessions.map(
      (s) => `${s.sessionName}:${s.status}`,
    )
  }
  const writeElsewhere = (t: TestGateway, sql: string, ...params: unknown[]) =>
    writeFileElsewhere(t.databasePath, sql, ...params)
  const insertSession = (t: TestGateway, workspaceId: string, id: string, name: string) =>
    writeElsewhere(
      t,
      `INSERT INTO sessions (id, workspace_id, name, status, webhook_url, webhook_messages, webhook_secret, created_at, updated_at)
       VALUES (?, ?, ?, 'disconnected', 'https://hooks.invalid/x', 1, 'whsec_x', ?, ?)`,
      id,
      workspaceId,
      name,
      Date.now(),
      Date.now(),
    )

  it('shows a session created, changed and deleted by another connection from the next event-loop turn', async () => {
    const t = await start()
    const mine = t.addWorkspace('mine')
    expect(await names(t, mine.key)).toEqual([])
    await insertSession(t, mine.workspaceId, 'ses_a', 'front-desk')
    expect(await names(t, mine.key)).toEqual(['front-desk:disconnected'])
    expect(await names(t, mine.key)).toEqual(['front-desk:disconnected'])
    await writeElsewhere(t, `UPDATE sessions SET name = 'reception', status = 'expired' WHERE id = 'ses_a'`)
    expect(await names(t, mine.key)).toEqual(['reception:expired'])
    await writeElsewhere(t, `DELETE FROM sessions WHERE id = 'ses_a'`)
    expect(await names(t, mine.key)).toEqual([])
  })

  it("shows the gateway's own change in the same event-loop turn", async () => {
    const t = await start()
    const mine = t.addWorkspace('mine')
    expect(await names(t, mine.key)).toEqual([])
    // Through the gateway's own connection, as its services write; no turn passes before the list.
    const insert = t.gateway.context.db.$client.prepare(
      `INSERT INTO sessions (id, workspace_id, name, status, webhook_url, webhook_messages, webhook_secret, created_at, updated_at)
       VALUES ('ses_own', ?, 'own', 'pending', 'https://hooks.invalid/x', 1, 'whsec_x', 0, 0)`,
    ) as unknown as { run(...params: unknown[]): unknown }
    insert.run(mine.workspaceId)
    expect(await names(t, mine.key)).toEqual(['own:pending'])
  })

  it('keeps workspaces apart, and a change in one leaves the other correct', async () => {
    const t = await start()
    const mine = t.addWorkspace('mine')
    const other = t.addWorkspace('other')
    await insertSession(t, mine.workspaceId, 'ses_mine', 'mine')
    await insertSession(t, other.workspaceId, 'ses_theirs', 'theirs')
    expect(await names(t, mine.key)).toEqual(['mine:disconnected'])
    expect(await names(t, other.key)).toEqual(['theirs:disconnected'])
    await writeElsewhere(t, `UPDATE sessions SET status = 'logged_out' WHERE id = 'ses_theirs'`)
    expect(await names(t, mine.key)).toEqual(['mine:disconnected'])
    expect(await names(t, other.key)).toEqual(['theirs:logged_out'])
  })

  it('lets a workspace be deleted with its sessions (the version triggers fire during the cascade)', async () => {
    const t = await start()
    const other = t.addWorkspace('leaving')
    await insertSession(t, other.workspaceId, 'ses_gone', 'gone')
    expect(await names(t, other.key)).toEqual(['gone:disconnected'])
    await writeElsewhere(t, 'DELETE FROM workspaces WHERE id = ?', other.workspaceId)
    expect(queryFile(t.databasePath, 'SELECT id FROM sessions WHERE workspace_id = ?', other.workspaceId)).toEqual([])
    expect(await names(t)).toEqual([])
  })
})
