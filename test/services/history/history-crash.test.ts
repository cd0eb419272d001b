import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCrashRig, type CrashRig } from '../../support/crash-rig'
import { pollUntil } from '../../support/poll'
import { queryFile } from '../../support/sqlite-file'

const ACCOUNT = '15550360001'

/**
 * A history import survives SIGKILL: a gateway process killed while it reads the phone's
 * history (no shutdown code runs) and started again on the same file finishes it: every message
 * once, one history.synced, every chunk read.
 */
describe('history import across a SIGKILL', () => {
  let rig: CrashRig
  beforeAll(async () => {
    rig = await startCrashRig([])
  })
  afterAll(() => rig.close())

  const chunks = () => queryFile<{ state: string }>(rig.databasePath, 'SELECT state FROM history_chunks ORDER BY rowid')

  it('finishes after the restart with one record per message and one history.synced', async () => {
    await rig.sim.seedHistory(ACCOUNT, { chats: 20, messagesPerChat: 400, days: 30, messagesPerChunk: 400 })
    const expected = rig.sim.historyMessagesWithin(ACCOUNT, 365)
    const api = await rig.start()
    const connect = await api('/v1/session/connect', {
      method: 'POST',
      body: JSON.stringify({
        sessionName: 'history-crash',
        webhookUrl: rig.receiver.url('history-crash'),
        history: { days: 60, maxMessages: 100_000 },
      }),
    })
    expect(connect.status).toBe(200)
    const { webhookSecret, qrCode } = (await connect.json()) as Record<string, string>
    rig.sim.scan(qrCode!, ACCOUNT)
    // Mid-sync: some chunks read, some not.
    await pollUntil(
      chunks,
      (rows) => rows.some((row) => row.state === 'done') && rows.some((row) => row.state === 'pending'),
      { timeoutMs: 30_000, intervalMs: 5, what: 'the import to be under way' },
    )
    await rig.kill()
    const before = chunks()
    expect(before.some((row) => row.state === 'pending')).toBe(true)

    await rig.start()
    const events = await rig.receiver.waitFor(
      'history-crash',
      webhookSecret!,
      (all) => all.some((event) => event.type === 'history.synced'),
      { timeoutMs: 60_000 },
    )
    const stored = queryFile<{ n: number; ids: number }>(
      rig.databasePath,
      "SELECT count(*) AS n, count(DISTINCT id) AS ids FROM messages WHERE source = 'history'",
    )[0]!
    expect(stored.n).toBe(expected)
    expect(stored.ids).toBe(expected)
    expect(chunks().every((row) => row.state === 'done')).toBe(true)
    const synced = events.filter((event) => event.type === 'history.synced')
    expect(synced).toHaveLength(1)
    expect(synced[0]!.data.messages).toBe(expected)
  }, 120_000)
})
