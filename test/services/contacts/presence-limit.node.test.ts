import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_PRESENCE_SUBSCRIPTIONS } from '../../../src/services/contacts/presence'
import { queryFile, writeFileElsewhere } from '../../support/sqlite-file'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

const ACCOUNT = '15550045101'
const FRIEND = '15551451001'

/**
 * The bound on whom one session follows: each subscription is asked again at every login, so a
 * client may not grow the list without limit. The rows are written as another process would
 * (better-sqlite3 directly: Node only), 1,000 of them, then the API is asked for one more.
 */
describe('presence subscriptions: at most 1,000 per session', () => {
  let t: SimulatedGateway
  let sessionId: string

  beforeAll(async () => {
    t = await startSimulatedGateway()
    t.sim.addContact(FRIEND)
    sessionId = await t.pairByQr('crowded', ACCOUNT)
  }, 60_000)
  afterAll(() => t.close())

  it('refuses a new one past the bound (400, nothing stored), and still answers one already kept', async () => {
    expect(MAX_PRESENCE_SUBSCRIPTIONS).toBe(1_000)
    await writeFileElsewhere(
      t.databasePath,
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO presence_subscriptions (session_id, jid, created_at)
       SELECT ?, (15559000000 + i) || '@s.whatsapp.net', 0 FROM n`,
      MAX_PRESENCE_SUBSCRIPTIONS - 1,
      sessionId,
    )
    expect((await t.post(`/v1/contact/${FRIEND}/presence/subscribe`, { sessionId })).status).toBe(200)
    const over = await t.post('/v1/contact/15559999999/presence/subscribe', { sessionId })
    expect([over.status, over.body.error]).toEqual([400, 'validation_error'])
    expect(over.body.message).toContain('1000')
    // One already followed is no new one: idempotent still.
    expect((await t.post(`/v1/contact/${FRIEND}/presence/subscribe`, { sessionId })).status).toBe(200)
    const rows = queryFile<{ n: number }>(
      t.databasePath,
      'SELECT count(*) AS n FROM presence_subscriptions WHERE session_id = ?',
      sessionId,
    )[0]!.n
    expect(rows).toBe(MAX_PRESENCE_SUBSCRIPTIONS)
  })
})
