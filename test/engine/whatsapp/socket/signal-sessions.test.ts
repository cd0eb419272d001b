import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pollUntil } from '../../../support/poll'
import { startSimulatedGateway, type SimulatedGateway } from '../../../support/simulated-gateway'
import { queryFile } from '../../../support/sqlite-file'

const ACCOUNT = '15550013201'
const CONTACT = '15551233201'
const TURNS = 24

interface StoredChain {
  chainType: number
}
interface StoredSession {
  _chains: Record<string, StoredChain>
}

/** Every Signal session stored for the account (wa_auth, category `session`), each record's sessions. */
const storedSessions = (databasePath: string): StoredSession[] =>
  queryFile<{ value: string }>(databasePath, "SELECT value FROM wa_auth WHERE category = 'session'").flatMap((row) => {
    const parsed = JSON.parse(row.value)
    const record = typeof parsed === 'string' ? JSON.parse(parsed) : parsed
    return Object.values(record._sessions as Record<string, StoredSession>)
  })

const RECEIVING = 2

/**
 * A conversation going back and forth moves the Signal ratchet on at each turn, and each move
 * opens a receiving chain. libsignal-node kept every closed one for good, in a session that is
 * stored, and rewritten, with every message: a chatty contact's session grew without end (the
 * soak's heap grew with it). Patched to keep the newest five, as Signal's own libsignal does.
 */
describe('Signal sessions over a long conversation', () => {
  let t: SimulatedGateway
  let sessionId: string
  beforeAll(async () => {
    t = await startSimulatedGateway()
    t.sim.addContact(CONTACT)
    sessionId = await t.pairByQr('chatty', ACCOUNT)
  }, 60_000)
  afterAll(() => t.close())

  it(`keeps at most five receiving chains a session after ${TURNS} turns, every message getting through both ways`, async () => {
    for (let turn = 0; turn < TURNS; turn++) {
      await t.sim.contact(CONTACT).send({ text: `from the contact ${turn}` }, { to: ACCOUNT })
      await pollUntil(
        async () =>
          queryFile<{ n: number }>(t.databasePath, "SELECT count(*) AS n FROM messages WHERE direction = 'inbound'")[0]!
            .n,
        (n) => n === turn + 1,
        { timeoutMs: 10_000, what: `the contact's text ${turn} recorded` },
      )
      const sent = await t.post('/v1/message/text', { sessionId, phone: CONTACT, message: `from the account ${turn}` })
      expect(sent.status).toBe(200)
      await t.sim.contact(CONTACT).waitForMessage((m) => m.id === sent.body.messageId)
    }
    const sessions = storedSessions(t.databasePath)
    expect(sessions.length).toBeGreaterThan(0)
    const receiving = sessions.map(
      (session) => Object.values(session._chains).filter((chain) => chain.chainType === RECEIVING).length,
    )
    // The contact's session turned the ratchet every turn: without the cap it holds ~TURNS chains.
    expect(Math.max(...receiving)).toBe(5)
    const texts = queryFile<{ text: string }>(
      t.databasePath,
      "SELECT json_extract(content, '$.text') AS text FROM messages WHERE direction = 'inbound' ORDER BY rowid",
    ).map((row) => row.text)
    expect(texts).toEqual(Array.from({ length: TURNS }, (_, turn) => `from the contact ${turn}`))
    expect(t.sim.violations()).toEqual([])
  }, 120_000)
})
