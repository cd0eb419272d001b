import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { groupOpen, groupWrite } from '../../../src/perf/group-commit'
import { startTestGateway, type TestGateway } from '../../support/gateway'
import { queryFile } from '../../support/sqlite-file'

const ADMIN_KEY = 'admin-key-0123456789-0123456789-abcdef'

/**
 * While received messages' writes are grouped (perf/group-commit.ts), whatever a request writes
 * joins the open group; its answer must still report only what is in the file, as another
 * process, or the gateway after a crash, would read it.
 */
describe('answers after the commit', () => {
  let t: TestGateway
  beforeAll(async () => {
    t = await startTestGateway({ config: { adminApiKey: ADMIN_KEY } })
  })
  afterAll(() => t.close())

  it('commits what a request wrote into an open group before its answer leaves', async () => {
    const db = t.gateway.context.db
    groupWrite(db, () => undefined) // a received message's writes, say: the group is open
    expect(groupOpen(db)).toBe(true)
    const response = await t.gateway.app.request('/v1/admin/workspaces', {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'committed', plan: 'free' }),
    })
    expect(response.status).toBe(201)
    const stored = queryFile<{ name: string }>(t.databasePath, 'SELECT name FROM workspaces').map((row) => row.name)
    expect(stored).toContain('committed')
    expect(groupOpen(db)).toBe(false)
  })
})
