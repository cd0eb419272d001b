import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pollUntil } from '../../../support/poll'
import { startSimulatedGateway, type SimulatedGateway } from '../../../support/simulated-gateway'
import { queryFile } from '../../../support/sqlite-file'

const ACCOUNT = '15550013201'
const CONTACT = '15551233201'
const QUIET_CONTACT = '15551233202'
const TURNS = 24

interface StoredChain {
  chainType: number
}
interface StoredSession {
  _chains: Record<string, StoredChain>
}

/** Every Signal session record stored for the account (wa_auth, category `session`), by its address. */
const storedRecords = (databasePath: string): Map<string, StoredSession[]> =>
  new Map(
    queryFile<{ key_id: string; value: string }>(
      databasePath,
      "SELECT key_id, value FROM wa_auth WHERE category = 'session'",
    ).map((row) => {
      const parsed = JSON.parse(row.value)
      const record = typeof parsed === 'string' ? JSON.parse(parsed) : parsed
      return [row.key_id, Object.values(record._sessions as Record<string, StoredSession>)]
    }),
  )
const storedSessions = (databasePath: string): StoredSession[] => [...storedRecords(databasePath).values()].flat()

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
    t.sim.addContact(QUIET_CONTACT)
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

  it('keeps one Signal session with a contact across reconnections, each of which asks for its devices again', async () => {
    const account = t.sim.account(ACCOUNT)
    const lid = t.sim.contact(QUIET_CONTACT).lid
    for (let round = 0; round < 4; round++) {
      if (round > 0) {
        // A new socket starts with cold caches: the next send asks WhatsApp for the contact's devices.
        const logins = account.stats().logins
        account.fault('drop')
        account.clearFaults()
        await pollUntil(
          async () => account.stats().logins > logins && account.online,
          (online) => online,
          { timeoutMs: 10_000, what: 'the session logged in again' },
        )
        await t.waitForStatus(sessionId, 'connected')
      }
      const sent = await t.post('/v1/message/text', { sessionId, phone: QUIET_CONTACT, message: `round ${round}` })
      expect(sent.status).toBe(200)
      await t.sim.contact(QUIET_CONTACT).waitForMessage((m) => m.id === sent.body.messageId)
    }
    // Baileys forced a new session for every LID a device query returned, known or not: one
    // session a round (a prekey of the contact's spent each time), the old ones kept in the record.
    const sessions = [...storedRecords(t.databasePath)].filter(([address]) => address.startsWith(`${lid}_`))
    expect(sessions.map(([, inRecord]) => inRecord.length)).toEqual([1])
    expect(t.sim.violations()).toEqual([])
  }, 120_000)
})
