import { setTimeout as sleep } from 'node:timers/promises'
import { parseResponse } from 'hono/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { messages } from '../../../src/db/schema'
import { startSimulatedGateway, type SimulatedGateway } from '../../support/simulated-gateway'

const ACCOUNT = '15550019101'
const ARCHIVE = '15550019102'
const ANA = '15551239101'
const BEN = '15551239102'
const CAR = '15551239103'
const DAN = '15551239104'
const EVE = '15551239105'

/**
 * GET /v1/chat/all through Baileys and the simulator: the chats the records make (1:1 by
 * number, a LID-addressed message in its number's chat, groups), their names, unread counts
 * that follow POST /v1/chat/read, order and pagination, and what is refused.
 */
describe('listing a session’s chats', () => {
  let t: SimulatedGateway
  let sessionId: string
  const lidOf: Record<string, string> = {}

  beforeAll(async () => {
    t = await startSimulatedGateway()
    for (const phone of [ANA, BEN, CAR, DAN, EVE]) lidOf[phone] = t.sim.addContact(phone).lid
    sessionId = await t.pairByQr('inbox', ACCOUNT)
  }, 60_000)
  afterAll(async () => {
    await t.close()
  })

  /** GET /v1/chat/all, typed; throws unless 200. */
  const list = (query: { limit?: string; cursor?: string } = {}, session = sessionId) =>
    parseResponse(t.api.v1.chat.all.$get({ query: { sessionId: session, ...query } }))
  const inbound = async (from: string, text: string, options: { group?: string; fromLid?: boolean } = {}) => {
    const id = await t.sim.contact(from).send({ text }, { to: ACCOUNT, ...options })
    await t.waitForRecord(sessionId, id, (record) => record?.status === 'received')
    return id
  }
  /** Rows written straight into the gateway's SQLite file, as records an older run left. */
  const seed = (
    rows: { id: string; chatJid: string; phone: string | null; lid: string | null; at: number }[],
    to = sessionId,
  ) =>
    t.gateway.context.db
      .insert(messages)
      .values(
        rows.map((row) => ({
          sessionId: to,
          id: row.id,
          chatJid: row.chatJid,
          phone: row.phone,
          lid: row.lid,
          direction: 'inbound' as const,
          type: 'text',
          status: 'received' as const,
          content: { text: row.id },
          createdAt: new Date(row.at),
          updatedAt: new Date(row.at),
        })),
      )
      .run()

  it('lists each chat once, newest first, with its name, unread count and newest record', async () => {
    expect(await list()).toEqual({ chats: [], nextCursor: null })

    await inbound(ANA, 'hello')
    // The same contact writing from its LID: still its number's chat.
    const fromLid = await inbound(ANA, 'from my lid', { fromLid: true })
    const sent = await t.post('/v1/message/text', { sessionId, phone: BEN, message: 'hi Ben' })
    expect(sent.status, JSON.stringify(sent.body)).toBe(200)
    const created = await t.post('/v1/group/create', {
      sessionId,
      subject: 'Inbox testers',
      participants: [ANA, CAR, EVE],
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const group = { jid: created.body.group.groupId as string }
    // An inbound record is timed by WhatsApp's timestamp, in whole seconds: a second later, it is
    // surely newer than the send above.
    await sleep(1000)
    const inGroup = await inbound(CAR, 'hello group', { group: group.jid })

    const { chats, nextCursor } = await list()
    expect(nextCursor).toBeNull()
    expect(chats.map((chat) => chat.chat)).toEqual([group.jid, BEN, ANA])
    const [groupChat, benChat, anaChat] = chats
    expect(groupChat).toMatchObject({
      phone: null,
      lid: null,
      isGroup: true,
      name: 'Inbox testers',
      unreadCount: 1,
      lastMessage: { messageId: inGroup, phone: group.jid, participant: CAR, content: { text: 'hello group' } },
    })
    expect(benChat).toMatchObject({
      phone: BEN,
      isGroup: false,
      unreadCount: 0,
      lastMessage: { messageId: sent.body.messageId, direction: 'outbound', content: { text: 'hi Ben' } },
    })
    expect(anaChat).toMatchObject({
      phone: ANA,
      lid: `${lidOf[ANA]}@lid`,
      isGroup: false,
      name: `Contact ${ANA}`,
      unreadCount: 2,
      lastMessage: { messageId: fromLid, direction: 'inbound', status: 'received' },
    })
    // The newest record is exactly what GET /v1/message/{id} answers, and its time the chat's.
    const record = await t.get(`/v1/message/${fromLid}?sessionId=${sessionId}`)
    expect(anaChat?.lastMessage).toEqual(record.body)
    expect(anaChat?.lastMessageAt).toBe(record.body.createdAt)
  })

  it('counts unread until POST /v1/chat/read marks them, and shows a deleted newest record as deleted', async () => {
    const read = await t.post('/v1/chat/read', { sessionId, phone: ANA })
    expect(read.status, JSON.stringify(read.body)).toBe(200)
    const after = await list()
    expect(after.chats.find((chat) => chat.chat === ANA)).toMatchObject({ unreadCount: 0 })
    expect(after.chats.find((chat) => chat.isGroup)).toMatchObject({ unreadCount: 1 })

    const sent = await t.post('/v1/message/text', { sessionId, phone: BEN, message: 'oops' })
    const deleted = await t.post('/v1/message/delete', { sessionId, phone: BEN, messageId: sent.body.messageId })
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200)
    const { chats } = await list()
    expect(chats[0]).toMatchObject({ chat: BEN, lastMessage: { messageId: sent.body.messageId, status: 'deleted' } })
  })

  it('merges a chat recorded under a LID alone into its number’s once the gateway knows the number', async () => {
    // Records an older run kept with no number: the gateway had not learnt it yet. Older than
    // every record above, so each lands at the end of the list.
    const old = Date.now() - 86_400_000
    seed([
      { id: 'DANLIDONLY', chatJid: `${lidOf[DAN]}@lid`, phone: null, lid: lidOf[DAN]!, at: old },
      { id: 'EVELIDONLY', chatJid: `${lidOf[EVE]}@lid`, phone: null, lid: lidOf[EVE]!, at: old + 1 },
    ])
    const before = await list()
    expect(before.chats.slice(-2).map((chat) => [chat.chat, chat.phone, chat.lid])).toEqual([
      [`${lidOf[EVE]}@lid`, null, `${lidOf[EVE]}@lid`],
      [`${lidOf[DAN]}@lid`, null, `${lidOf[DAN]}@lid`],
    ])

    // The session writes to Dan by number: the send's record names both (WhatsApp told the LID
    // when asked whether the number has an account), so the LID-only one joins his chat.
    const toDan = await t.post('/v1/message/text', { sessionId, phone: DAN, message: 'it is you, Dan' })
    expect(toDan.status, JSON.stringify(toDan.body)).toBe(200)
    // Eve writes only in the group: her push name names both, the LID-only chat becomes hers.
    const group = (await list()).chats.find((chat) => chat.isGroup)!.chat
    await inbound(EVE, 'Eve in the group', { group })

    const { chats } = await list()
    const dan = chats.filter((chat) => chat.chat === DAN || chat.lid === `${lidOf[DAN]}@lid`)
    expect(dan).toHaveLength(1)
    expect(dan[0]).toMatchObject({
      chat: DAN,
      phone: DAN,
      lid: `${lidOf[DAN]}@lid`,
      name: null,
      unreadCount: 1,
      lastMessage: { messageId: toDan.body.messageId, direction: 'outbound' },
    })
    const eve = chats.filter((chat) => chat.chat === EVE || chat.lid === `${lidOf[EVE]}@lid`)
    expect(eve).toEqual([
      expect.objectContaining({
        chat: EVE,
        phone: EVE,
        name: `Contact ${EVE}`,
        unreadCount: 1,
        lastMessage: expect.objectContaining({ messageId: 'EVELIDONLY' }),
      }),
    ])
  })

  it('pages through many chats newest first, each once, and an offline session still lists', async () => {
    const archive = await t.pairByQr('archive', ARCHIVE)
    // 250 chats of 3 records each, seeded in SQLite: sending 750 messages through the simulator
    // would take minutes. Pairs of chats share their newest time, to page across ties.
    const base = Date.parse('2026-01-01T00:00:00Z')
    const seeded = Array.from({ length: 250 }, (_, c) => {
      const phone = `1444${String(c).padStart(7, '0')}`
      return [0, 1, 2].map((r) => ({
        id: `SEED${c}R${r}`,
        chatJid: `${phone}@s.whatsapp.net`,
        phone,
        lid: null,
        at: base + Math.floor(c / 2) * 60_000 + (r - 2) * 1000,
      }))
    })
    seed(seeded.flat(), archive)

    const expected = seeded
      .map((rows) => ({ chat: rows[0]!.phone, at: rows[2]!.at }))
      .sort((a, b) => b.at - a.at || (b.chat < a.chat ? -1 : 1))
    const pages: Awaited<ReturnType<typeof list>>['chats'][] = []
    let cursor: string | null = null
    do {
      const page: Awaited<ReturnType<typeof list>> = await list(
        { limit: '100', ...(cursor ? { cursor } : {}) },
        archive,
      )
      pages.push(page.chats)
      cursor = page.nextCursor
    } while (cursor)
    expect(pages.map((page) => page.length)).toEqual([100, 100, 50])
    const listed = pages.flat()
    expect(listed.map((chat) => [chat.chat, Date.parse(chat.lastMessageAt)])).toEqual(
      expected.map((e) => [e.chat, e.at]),
    )
    expect(listed.every((chat) => chat.unreadCount === 3 && chat.lastMessage.messageId.endsWith('R2'))).toBe(true)
    expect((await list({ limit: '1' }, archive)).chats).toHaveLength(1)
    expect((await list({}, archive)).chats).toHaveLength(50)

    // Disconnected: the records are the gateway's own, the list still answers.
    const disconnected = await t.request(`/v1/session/disconnect/${archive}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${t.key}` },
    })
    expect(disconnected.status).toBe(200)
    await t.waitForStatus(archive, 'disconnected')
    const offline = await list({ limit: '100' }, archive)
    expect(offline.chats.map((chat) => chat.chat)).toEqual(pages[0]!.map((chat) => chat.chat))
  }, 30_000)

  it('is 400 for a bad limit, cursor or parameter, and 404 for another workspace’s session', async () => {
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
    for (const query of [
      '&limit=0',
      '&limit=101',
      '&limit=-1',
      '&limit=1.5',
      '&limit=ten',
      '&cursor=not-a-cursor',
      `&cursor=${b64([1e300, 'x'])}`,
      `&cursor=${b64(['1', 'x'])}`,
      `&cursor=${b64({ at: 1, key: 'x' })}`,
      `&cursor=${b64([1])}`,
      `&cursor=${'A'.repeat(201)}`,
      '&phone=15551239101',
    ]) {
      const { status, body } = await t.get(`/v1/chat/all?sessionId=${sessionId}${query}`)
      expect([status, body.error], query).toEqual([400, 'validation_error'])
    }
    const noSession = await t.get('/v1/chat/all')
    expect([noSession.status, noSession.body.error]).toEqual([400, 'validation_error'])

    const other = t.addWorkspace('other-inbox')
    const theirs = await t.get(`/v1/chat/all?sessionId=${sessionId}`, other.key)
    const none = await t.get('/v1/chat/all?sessionId=ses_none')
    expect([theirs.status, theirs.body.error]).toEqual([404, 'not_found'])
    expect(theirs.body.message).toBe(none.body.message.replace('ses_none', sessionId))
  })
})
