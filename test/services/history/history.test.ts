import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ServiceContext } from '../../../src/services/context'
import { pruneMessages } from '../../../src/services/messages/records/retention'
import { queryFile } from '../../support/sqlite-file'
import { pollUntil } from '../../support/poll'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'
import {
  fastWebhooks,
  loopbackWebhooks,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support/webhook-receiver'

const DAY = 86_400_000

/**
 * History at linking through the public surface: a phone seeded in the simulator links a session
 * that asked for history (the real Baileys client asks WhatsApp for a full sync with a day limit
 * at pairing); what the phone sends is read into the records, the chat list, and events received
 * by a real local webhook receiver; rows checked in the SQLite file.
 */
describe('history at linking', () => {
  let t: SimulatedGateway
  let receiver: WebhookReceiver
  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    t = await startSimulatedGateway({ plan: 'paid', config: { ...loopbackWebhooks, webhooks: fastWebhooks() } })
  })
  afterAll(async () => {
    await t.close()
    await receiver.close()
  })

  const allMessages = async (sessionId: string, query = '') => {
    const records: any[] = []
    let cursor: string | null = null
    do {
      const page = await t.get(
        `/v1/message/all?sessionId=${sessionId}&limit=100${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      )
      expect(page.status).toBe(200)
      records.push(...page.body.messages)
      cursor = page.body.nextCursor
    } while (cursor)
    return records
  }

  it('imports the chats, groups, names and messages the phone has within the days asked for, and says so in two kinds of event', async () => {
    const phone = '15550350001'
    // 21 days of 40 messages: one every 12.6 h, none within an hour of the 10-day limit.
    const seeded = await t.sim.seedHistory(phone, { chats: 3, messagesPerChat: 40, days: 21, groups: 1, media: 2 })
    const linked = await t.linkSession({
      phone,
      connect: { sessionName: 'with-history', webhookUrl: receiver.url('history'), history: { days: 10 } },
    })
    expect(linked.connected.history).toEqual({ days: 10, maxMessages: 10_000 })
    const events = await receiver.waitFor('history', linked.webhookSecret, (all) =>
      all.some((event) => event.type === 'history.synced'),
    )
    const synced = events.filter((event) => event.type === 'history.synced')
    expect(synced).toHaveLength(1)
    const progress = events.filter((event) => event.type === 'history.progress')
    expect(progress.length).toBeGreaterThan(1)
    expect(progress.at(-1)!.data.progress).toBe(100)
    expect(events.some((event) => event.type === 'message.received')).toBe(false)

    const records = await allMessages(linked.sessionId)
    const cutoff = Date.now() - 10 * DAY
    const expected = t.sim.historyMessagesWithin(phone, 10)
    expect(records).toHaveLength(expected)
    expect(synced[0]!.data.messages).toBe(expected)
    expect(records.every((record) => record.source === 'history')).toBe(true)
    expect(records.every((record) => Date.parse(record.createdAt) >= cutoff - 60_000)).toBe(true)
    expect(new Set(records.map((record) => record.direction))).toEqual(new Set(['inbound', 'outbound']))

    // The chat list: every 1:1 chat by its number (LID-addressed ones merged), names, the group.
    const chats = (await t.get(`/v1/chat/all?sessionId=${linked.sessionId}&limit=100`)).body.chats as any[]
    for (const chat of seeded.chats) {
      const listed = chats.find((c) => c.chat === chat.phone)
      expect(listed, `chat with ${chat.phone}`).toBeDefined()
      expect(listed.lid).toBe(`${chat.lid}@lid`)
      expect([chat.name, chat.pushName]).toContain(listed.name)
      expect(listed.unreadCount).toBe(chat.unread)
      expect(listed.archived).toBe(chat.archived)
      expect(listed.pinned).toBe(chat.pinned)
      expect(listed.mutedUntil !== null).toBe(chat.muted)
    }
    const group = chats.find((c) => c.chat === seeded.groups[0]!.jid)
    expect(group?.name).toBe(seeded.groups[0]!.subject)
    expect(chats).toHaveLength(seeded.chats.length + seeded.groups.length)

    // A file of the history downloads on demand.
    const mediaId = seeded.mediaMessageIds.find((id) => records.some((record) => record.messageId === id))
    expect(mediaId).toBeDefined()
    const file = await t.request(`/v1/message/${mediaId}/media?sessionId=${linked.sessionId}`)
    expect(file.status).toBe(200)
    expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(0)

    // The source filter.
    expect(await allMessages(linked.sessionId, '&source=live')).toHaveLength(0)
    expect(await allMessages(linked.sessionId, '&source=history')).toHaveLength(expected)
    const chunks = queryFile<{ state: string }>(
      t.databasePath,
      'SELECT state FROM history_chunks WHERE session_id = ?',
      linked.sessionId,
    )
    expect(chunks.every((chunk) => chunk.state === 'done')).toBe(true)
  })

  it('a session without history imports nothing, though the phone sends its bootstrap', async () => {
    const phone = '15550350002'
    await t.sim.seedHistory(phone, { chats: 2, messagesPerChat: 5, days: 3 })
    const linked = await t.linkSession({ phone, connect: { sessionName: 'no-history' } })
    await t.sim.account(phone).waitForHistoryAcknowledged()
    expect(t.sim.account(phone).historySent().length).toBeGreaterThan(0)
    expect(await allMessages(linked.sessionId)).toHaveLength(0)
    const chunks = queryFile(t.databasePath, 'SELECT id FROM history_chunks WHERE session_id = ?', linked.sessionId)
    expect(chunks).toHaveLength(0)
  })

  it('maxMessages holds: the rest is counted as skipped', async () => {
    const phone = '15550350003'
    await t.sim.seedHistory(phone, { chats: 4, messagesPerChat: 30, days: 5, messagesPerChunk: 25 })
    const linked = await t.linkSession({
      phone,
      connect: { sessionName: 'capped', webhookUrl: receiver.url('capped'), history: { days: 30, maxMessages: 50 } },
    })
    const events = await receiver.waitFor('capped', linked.webhookSecret, (all) =>
      all.some((event) => event.type === 'history.synced'),
    )
    const synced = events.find((event) => event.type === 'history.synced')!
    expect(synced.data.messages).toBe(50)
    expect(synced.data.skipped).toBeGreaterThanOrEqual(120 - 50)
    expect(await allMessages(linked.sessionId)).toHaveLength(50)
    // Retention counts an imported record's days from its import, not from when it was sent.
    // The running gateway's context (its public type is narrower), with one day of retention.
    const context = t.gateway.context as unknown as ServiceContext
    pruneMessages({ ...context, config: { ...context.config, messageRetentionDays: 1 } })
    expect(await allMessages(linked.sessionId)).toHaveLength(50)
  })

  it('refuses bad values with a 400 that names the field, and stores nothing', async () => {
    for (const history of [
      { days: 0 },
      { days: 366 },
      { days: 1.5 },
      { days: 7, maxMessages: 0 },
      { days: 7, extra: 1 },
      {},
    ]) {
      const answer = await t.connect({ sessionName: 'bad-history', history })
      expect(answer.status, JSON.stringify(history)).toBe(400)
      expect(JSON.stringify(answer.body)).toContain('history')
    }
    const overCeiling = await t.connect({ sessionName: 'bad-history', history: { days: 7, maxMessages: 100_001 } })
    expect(overCeiling.status).toBe(400)
    expect(overCeiling.body.error.message + JSON.stringify(overCeiling.body)).toContain('HISTORY_MAX_MESSAGES')
    const rows = queryFile(t.databasePath, "SELECT id FROM sessions WHERE name = 'bad-history'")
    expect(rows).toHaveLength(0)
  })

  it('is set for the next linking by update, and another workspace cannot see or change it', async () => {
    const phone = '15550350004'
    const linked = await t.linkSession({ phone, connect: { sessionName: 'later-history' } })
    const update = await t.request(`/v1/session/update/${linked.sessionId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ history: { days: 3 } }),
    })
    expect(update.status).toBe(200)
    expect(((await update.json()) as any).history).toEqual({ days: 3, maxMessages: 10_000 })
    const other = t.addWorkspace('history-other').key
    const foreign = await t.request(`/v1/session/update/${linked.sessionId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${other}` },
      body: JSON.stringify({ history: null }),
    })
    expect(foreign.status).toBe(404)
    const listed = await pollUntil(
      () => t.listSessions(),
      (sessions) => sessions.some((s) => s.sessionId === linked.sessionId),
    )
    expect(listed.find((s) => s.sessionId === linked.sessionId)!.history).toEqual({ days: 3, maxMessages: 10_000 })
    expect((await t.get(`/v1/message/all?sessionId=${linked.sessionId}`, other)).status).toBe(404)
  })
})
