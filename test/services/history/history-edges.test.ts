import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pollUntil } from '../../support/poll'
import { queryFile } from '../../support/sqlite-file'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import {
  fastWebhooks,
  loopbackWebhooks,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver'

const CHUNK_BUDGET = 8 * 1024 * 1024
const METRICS_TOKEN = 'metrics-token-for-the-history-tests-0123'

/**
 * History against what else happens at linking and against a hostile phone: a message arriving
 * live and in history is one record (and its message.received is never lost), a chunk that
 * inflates past its budget or does not decode is cut off and reported while the rest stands.
 */
describe('history at its edges', () => {
  let t: SimulatedGateway
  let receiver: WebhookReceiver
  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    t = await startSimulatedGateway({
      plan: 'paid',
      config: {
        ...loopbackWebhooks,
        webhooks: fastWebhooks(),
        history: { supported: true, maxMessages: 100_000, chunkMaxBytes: CHUNK_BUDGET },
        metricsToken: METRICS_TOKEN,
      },
    })
  })
  afterAll(async () => {
    await t.close()
    await receiver.close()
  })

  const recordsWithId = (sessionId: string, id: string) =>
    queryFile<{ source: string | null; status: string }>(
      t.databasePath,
      'SELECT source, status FROM messages WHERE session_id = ? AND id = ?',
      sessionId,
      id,
    )

  it('a message that arrives live and in history is one record, with its message.received, whichever comes first', async () => {
    const phone = '15550370001'
    const seeded = await t.sim.seedHistory(phone, { chats: 2, messagesPerChat: 6, days: 3, media: 2 })
    const [liveFirst, historyFirst] = seeded.mediaMessageIds
    const contact = seeded.chats[0]!.phone
    // The CDN holds every download: the history chunks wait while a message arrives live.
    const release = t.sim.holdMediaDownloads()
    const linked = await t.linkSession({
      phone,
      connect: { sessionName: 'live-and-history', webhookUrl: receiver.url('both'), history: { days: 7 } },
    })
    await t.sim.contact(contact).send({ text: 'live first' }, { to: phone, id: liveFirst })
    await pollUntil(
      () => recordsWithId(linked.sessionId, liveFirst!),
      (rows) => rows.length === 1,
    )
    release()
    const events = await receiver.waitFor('both', linked.webhookSecret, (all) =>
      all.some((event) => event.type === 'history.synced'),
    )
    expect(recordsWithId(linked.sessionId, liveFirst!)).toEqual([{ source: null, status: 'received' }])
    expect(recordsWithId(linked.sessionId, historyFirst!)).toEqual([{ source: 'history', status: expect.any(String) }])

    await t.sim.contact(contact).send({ text: 'history first' }, { to: phone, id: historyFirst })
    const after = await receiver.waitFor('both', linked.webhookSecret, (all) =>
      all.some((event) => event.type === 'message.received' && event.data.messageId === historyFirst),
    )
    expect(recordsWithId(linked.sessionId, historyFirst!)).toEqual([{ source: null, status: 'received' }])
    const received = after.filter((event) => event.type === 'message.received').map((event) => event.data.messageId)
    expect(received.sort()).toEqual([liveFirst, historyFirst].sort())
    expect(events.filter((event) => event.type === 'history.synced')).toHaveLength(1)
  })

  it('holds its own day limit when the phone sends more than the session now asks for', async () => {
    const phone = '15550370003'
    // 30 days of messages, one every 18 h (none near the 5-day line); the phone is asked for 30.
    await t.sim.seedHistory(phone, { chats: 2, messagesPerChat: 40, days: 30 })
    const release = t.sim.holdMediaDownloads()
    const linked = await t.linkSession({
      phone,
      connect: { sessionName: 'narrowed', webhookUrl: receiver.url('narrowed'), history: { days: 30 } },
    })
    // Before a chunk is read, the session asks for 5 days: the import keeps to it.
    const update = await t.request(`/v1/session/update/${linked.sessionId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ history: { days: 5 } }),
    })
    expect(update.status).toBe(200)
    release()
    const events = await receiver.waitFor('narrowed', linked.webhookSecret, (all) =>
      all.some((event) => event.type === 'history.synced'),
    )
    const synced = events.find((event) => event.type === 'history.synced')!
    const expected = t.sim.historyMessagesWithin(phone, 5)
    expect(synced.data.messages).toBe(expected)
    expect(synced.data.skipped).toBeGreaterThanOrEqual(t.sim.historyMessagesWithin(phone, 30) - expected)
    const oldest = queryFile<{ at: number }>(
      t.databasePath,
      'SELECT min(created_at) AS at FROM messages WHERE session_id = ?',
      linked.sessionId,
    )[0]!.at
    expect(oldest).toBeGreaterThan(Date.now() - 5 * 86_400_000 - 60 * 60 * 1000)
  })

  it('cuts off a chunk that inflates past its budget, and one that does not decode, and reports both; the rest stands', async () => {
    const phone = '15550370002'
    await t.sim.seedHistory(phone, { chats: 2, messagesPerChat: 10, days: 3 })
    const linked = await t.linkSession({
      phone,
      connect: { sessionName: 'bombed', webhookUrl: receiver.url('bomb'), history: { days: 7 } },
    })
    await receiver.waitFor('bomb', linked.webhookSecret, (all) => all.some((event) => event.type === 'history.synced'))
    const stored = queryFile<{ n: number }>(
      t.databasePath,
      'SELECT count(*) AS n FROM messages WHERE session_id = ?',
      linked.sessionId,
    )[0]!.n
    expect(stored).toBeGreaterThan(0)

    // 64 MiB of zeros in a field the reader skips: it counts them as they stream past and stops at 8 MiB.
    await t.sim.account(phone).sendHistoryBlob({ syncType: 'FULL', inflatedBytes: 64 * 1024 * 1024, chunkOrder: 9 })
    await t.sim
      .account(phone)
      .sendHistoryBlob({ syncType: 'FULL', raw: Buffer.from('not a zlib stream'), chunkOrder: 10 })
    const events = await receiver.waitFor(
      'bomb',
      linked.webhookSecret,
      (all) => all.filter((event) => event.type === 'history.progress' && event.data.chunk >= 9).length === 2,
    )
    const cut = events.filter((event) => event.type === 'history.progress' && event.data.chunk >= 9)
    expect(cut.map((event) => event.data.state)).toEqual(['cut_off', 'cut_off'])
    expect(cut[0]!.data.stateReason).toContain(`budget of ${CHUNK_BUDGET} bytes`)
    expect(cut[1]!.data.stateReason).toMatch(/inflate/)
    const after = queryFile<{ n: number }>(
      t.databasePath,
      'SELECT count(*) AS n FROM messages WHERE session_id = ?',
      linked.sessionId,
    )[0]!.n
    expect(after).toBe(stored)
    expect(events.filter((event) => event.type === 'history.synced')).toHaveLength(1)
    // Still answering, and /metrics counts both.
    expect((await t.get(`/v1/chat/all?sessionId=${linked.sessionId}`)).status).toBe(200)
    const metrics = await (
      await t.request('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text()
    expect(metrics).toContain('wa_history_chunks_total{state="cut_off"} 2')
    expect(metrics).toMatch(/wa_history_messages_total [1-9]/)
  })
})
