import type { BinaryNode, WAMessage } from '@whiskeysockets/baileys'
import { downloadMediaMessage } from '@whiskeysockets/baileys'
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WhatsAppSimulator } from '../simulator'
import { fixture } from '../fixtures'
import { memoryAuth, openSocket } from './harness'
import { HistoryRig, received } from './history-harness'

const DAY = 86_400
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
const now = () => Math.floor(Date.now() / 1000)

describe('the phone sends its seeded history at linking (real Baileys decoding every chunk)', () => {
  let rig: HistoryRig
  let sim: WhatsAppSimulator
  beforeAll(async () => {
    rig = await HistoryRig.start()
    sim = rig.sim
  })
  afterAll(async () => {
    await rig.stop()
  })

  it('full sync with a day limit: chats in both forms, names, unread, groups, push names, LID mappings, media, nothing older than the limit', async () => {
    const phone = '15557100001'
    const summary = await sim.seedHistory(phone, {
      chats: 6,
      messagesPerChat: 40,
      days: 30,
      groups: 2,
      media: 1,
      messagesPerChunk: 25,
    })
    expect(summary.messages).toBe(8 * 40)
    expect(summary.chats.map((chat) => chat.addressing)).toEqual(['lid', 'pn', 'lid', 'pn', 'lid', 'pn'])
    expect(summary.newest - summary.oldest).toBeLessThan(30 * DAY)
    expect(summary.mediaMessageIds).toHaveLength(6)
    const got = received()
    const { sock } = await rig.link(phone, rig.historyConfig(10), got)
    const sent = await sim.account(phone).waitForHistoryAcknowledged()

    // Order and shape: bootstrap, push names, recent, full; chunk order per type; progress to 100
    const types = sent.map((record) => record.syncType)
    expect(types.slice(0, 2)).toEqual(['INITIAL_BOOTSTRAP', 'PUSH_NAME'])
    expect(types.indexOf('RECENT')).toBe(2)
    expect(types.lastIndexOf('RECENT')).toBeLessThan(types.indexOf('FULL'))
    expect(types.filter((type) => type === 'RECENT').length).toBeGreaterThan(1)
    for (const type of new Set(types))
      expect(sent.filter((record) => record.syncType === type).map((record) => record.chunkOrder)).toEqual(
        types.filter((t) => t === type).map((_, i) => i + 1),
      )
    const progress = sent.map((record) => record.progress)
    expect(progress).toEqual([...progress].sort((a, b) => a - b))
    expect(progress.at(-1)).toBe(100)
    expect(progress.filter((p) => p === 100)).toHaveLength(1)
    expect(Math.max(...sent.map((record) => record.messages))).toBeLessThanOrEqual(25)
    expect(sent.every((record) => record.receipts.includes('peer_msg') && record.acknowledged)).toBe(true)

    // Messages: exactly those within 10 days, none older
    const expected = sim.historyMessagesWithin(phone, 10)
    expect(expected).toBeGreaterThan(8 * 3)
    expect(expected).toBeLessThan(summary.messages)
    expect(sent.reduce((sum, record) => sum + record.messages, 0)).toBe(expected)
    await expect.poll(() => got.messages.size, { timeout: 10_000 }).toBe(expected)
    const messages = [...got.messages.values()]
    const limit = now() - 10 * DAY
    expect(messages.every((m) => Number(m.messageTimestamp) >= limit - 5)).toBe(true)
    expect(messages.some((m) => m.key.fromMe) && messages.some((m) => !m.key.fromMe)).toBe(true)
    expect(messages.every((m) => m.key.id?.startsWith('3EB0'))).toBe(true)
    expect(messages.filter((m) => m.key.fromMe).every((m) => m.status! >= 2)).toBe(true)
    expect(messages.filter((m) => !m.key.fromMe).every((m) => m.pushName)).toBe(true)
    const quote = messages.find((m) => m.message?.extendedTextMessage?.contextInfo?.stanzaId)
    expect(quote?.message?.extendedTextMessage?.contextInfo?.quotedMessage?.conversation).toBeTruthy()

    // Chats: both addressing forms, the saved names, unread counts, archived / pinned / muted
    for (const chat of summary.chats) {
      const seen = got.chats.get(chat.jid)
      expect(seen, chat.jid).toBeDefined()
      expect(seen?.name).toBe(chat.name)
      expect(seen?.unreadCount).toBe(chat.unread)
      expect(Boolean(seen?.archived)).toBe(chat.archived)
      expect(Boolean(seen?.pinned)).toBe(chat.pinned)
      expect(Boolean(seen?.muteEndTime)).toBe(chat.muted)
      if (chat.addressing === 'lid') expect(seen?.pnJid).toBe(`${chat.phone}@s.whatsapp.net`)
      else expect(seen?.lidJid).toBe(`${chat.lid}@lid`)
      // the unread ones are the newest messages, from the contact
      const ordered = messages
        .filter((m) => m.key.remoteJid === chat.jid)
        .sort((a, b) => Number(a.messageTimestamp) - Number(b.messageTimestamp))
      expect(ordered.slice(ordered.length - chat.unread).every((m) => !m.key.fromMe)).toBe(true)
    }
    expect(summary.chats.filter((chat) => chat.archived)).toHaveLength(1)
    expect(summary.chats.filter((chat) => chat.pinned)).toHaveLength(1)
    expect(summary.chats.filter((chat) => chat.muted)).toHaveLength(1)

    // Push names (PUSH_NAME chunk) and the LID mappings Baileys stored from the bootstrap
    for (const chat of summary.chats) {
      const id = chat.addressing === 'lid' ? `${chat.lid}@lid` : `${chat.phone}@s.whatsapp.net`
      expect(got.contacts.get(id)?.notify).toBe(chat.pushName)
      // (Baileys answers the phone's device 0)
      expect(await sock.signalRepository.lidMapping.getPNForLID(`${chat.lid}@lid`)).toBe(
        `${chat.phone}:0@s.whatsapp.net`,
      )
    }

    // Groups: messages from several participants (by LID), and from the account; metadata answers
    for (const group of summary.groups) {
      expect(got.chats.get(group.jid)?.name).toBe(group.subject)
      const inGroup = messages.filter((m) => m.key.remoteJid === group.jid)
      const authors = new Set(inGroup.filter((m) => !m.key.fromMe).map((m) => m.key.participant))
      expect(authors.size).toBeGreaterThan(1)
      expect([...authors].every((jid) => jid?.endsWith('@lid'))).toBe(true)
      expect(inGroup.some((m) => m.key.fromMe)).toBe(true)
      const metadata = await sock.groupMetadata(group.jid)
      expect(metadata.subject).toBe(group.subject)
      expect(metadata.participants).toHaveLength(group.participants.length)
    }

    // A media message: Baileys downloads its file from the media host and it is the image seeded
    const image = messages.find((m) => summary.mediaMessageIds.includes(m.key.id ?? ''))
    expect(image?.message?.imageMessage?.directPath).toBeTruthy()
    const bytes = (await downloadMediaMessage(image!, 'buffer', {
      options: { dispatcher: rig.dispatcher },
    } as never)) as Buffer
    expect(sha256(bytes)).toBe(sha256(fixture('jpeg').bytes))

    // The seeded contacts are real: one writes live after linking
    const live = new Promise<WAMessage>((resolve) =>
      sock.ev.on('messages.upsert', ({ messages: upserted }) => {
        const message = upserted.find((m) => m.message?.conversation === 'still there?')
        if (message) resolve(message)
      }),
    )
    await sim.contact(summary.chats[0]!.phone).send({ text: 'still there?' })
    expect((await live).key.id).toBeTruthy()
    expect(sim.violations()).toEqual([])
  })

  it('full sync without a day limit sends everything seeded', async () => {
    const phone = '15557100002'
    const summary = await sim.seedHistory(phone, { chats: 3, messagesPerChat: 30, days: 400, groups: 1 })
    const got = received()
    await rig.link(phone, rig.historyConfig(0), got)
    const sent = await sim.account(phone).waitForHistoryAcknowledged()
    expect(new Set(sent.map((record) => record.syncType))).toEqual(
      new Set(['INITIAL_BOOTSTRAP', 'PUSH_NAME', 'RECENT', 'FULL']),
    )
    await expect.poll(() => got.messages.size, { timeout: 10_000 }).toBe(summary.messages)
    expect(Math.min(...[...got.messages.values()].map((m) => Number(m.messageTimestamp)))).toBe(summary.oldest)
    expect(sim.violations()).toEqual([])
  })

  it('without a full sync: only the bootstrap and the push names', async () => {
    const phone = '15557100003'
    const summary = await sim.seedHistory(phone, { chats: 4, messagesPerChat: 10, days: 5 })
    const got = received()
    await rig.link(phone, rig.historyConfig(), got)
    const sent = await sim.account(phone).waitForHistoryAcknowledged()
    expect(sent.map((record) => [record.syncType, record.progress])).toEqual([
      ['INITIAL_BOOTSTRAP', 50],
      ['PUSH_NAME', 100],
    ])
    // the newest three of each chat
    await expect.poll(() => got.messages.size, { timeout: 10_000 }).toBe(4 * 3)
    expect(got.chats.size).toBe(4)
    expect(got.contacts.get(`${summary.chats[1]!.phone}@s.whatsapp.net`)?.notify).toBe(summary.chats[1]!.pushName)
    expect(sim.violations()).toEqual([])
  })

  it('a device linked by pairing code asks the same way: its full sync and day limit are honoured', async () => {
    const phone = '15557100008'
    await sim.seedHistory(phone, { chats: 2, messagesPerChat: 90, days: 30 })
    const got = received()
    // The 3-day cutoff moves while the device links: a message on the boundary may age out meanwhile
    const withinBefore = sim.historyMessagesWithin(phone, 3)
    await rig.linkByCode(phone, rig.historyConfig(3), got)
    const sent = await sim.account(phone).waitForHistoryAcknowledged()
    expect(sent.map((record) => record.syncType)).toContain('RECENT')
    const expected = sent.reduce((sum, record) => sum + record.messages, 0)
    expect(expected).toBeLessThanOrEqual(withinBefore)
    expect(expected).toBeGreaterThanOrEqual(sim.historyMessagesWithin(phone, 3))
    expect(expected).toBeLessThan(2 * 30)
    await expect.poll(() => got.messages.size, { timeout: 10_000 }).toBe(expected)
    expect(sim.violations()).toEqual([])
  })

  it('a client killed before acknowledging gets the unacknowledged notifications again at its next login', async () => {
    const phone = '15557100004'
    const summary = await sim.seedHistory(phone, { chats: 3, messagesPerChat: 20, days: 20, messagesPerChunk: 10 })
    const account = () => sim.account(phone)
    const extra = rig.historyConfig(0)
    const auth = memoryAuth()
    let scanned = false
    await openSocket(sim, auth, extra, (qr) => {
      if (!scanned) sim.scan(qr, phone)
      scanned = true
    })
    // The first history notification arrives: the client dies at once, before any receipt
    let killed = false
    const first = await openSocket(sim, auth, extra, undefined, (sock) =>
      sock.ws.on('CB:message', (node: BinaryNode) => {
        if (
          killed ||
          !account()
            .historySent()
            .some((record) => record.id === node.attrs.id)
        )
          return
        killed = true
        sock.ws.close()
      }),
    )
    // (Baileys uploads its prekeys before it reports the connection open, so the history may beat it)
    expect(first.code === undefined || killed).toBe(true)
    await expect.poll(() => killed && !account().online, { timeout: 10_000 }).toBe(true)
    await expect.poll(() => account().historySent().at(-1)?.progress, { timeout: 10_000 }).toBe(100)
    const sent = account().historySent()
    expect(sent.some((record) => !record.acknowledged)).toBe(true)
    const waiting = sent.filter((record) => !record.acknowledged).map((record) => record.id)
    expect(account().unacknowledged()).toEqual(expect.arrayContaining(waiting))

    // Same credentials again: the queue is relayed, marked offline, and everything arrives
    const got = received()
    const offline = new Set<string>()
    await rig.login(auth, extra, got, (sock) =>
      sock.ws.on('CB:message', (node: BinaryNode) => {
        if (node.attrs.offline) offline.add(node.attrs.id ?? '')
      }),
    )
    await account().waitForHistoryAcknowledged()
    expect([...offline]).toEqual(expect.arrayContaining(waiting))
    await expect
      .poll(() => got.messages.size, { timeout: 10_000 })
      .toBe(sent.filter((record) => waiting.includes(record.id)).reduce((sum, record) => sum + record.messages, 0))
    expect(summary.messages).toBe(60)
    expect(sim.violations()).toEqual([])
  })
})
