import type { BinaryNode, Chat, Contact, UserFacingSocketConfig, WAMessage, WASocket } from '@whiskeysockets/baileys'
import { downloadMediaMessage } from '@whiskeysockets/baileys'
import { createHash } from 'node:crypto'
import { Writable } from 'node:stream'
import P from 'pino'
import { Agent, type Dispatcher } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixture } from '../fixtures'
import { WhatsAppSimulator } from '../simulator'
import { closeSocket, memoryAuth, openSocket, type AuthStore } from './harness'

const DAY = 86_400
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
const now = () => Math.floor(Date.now() / 1000)

/** What Baileys' own history decoder emitted, every `messaging-history.set` merged. */
interface Received {
  chats: Map<string, Chat>
  contacts: Map<string, Contact>
  messages: Map<string, WAMessage>
}

const received = (): Received => ({ chats: new Map(), contacts: new Map(), messages: new Map() })

const collect = (sock: WASocket, into: Received): void => {
  sock.ev.on('messaging-history.set', (set) => {
    for (const chat of set.chats) into.chats.set(chat.id ?? '', { ...into.chats.get(chat.id ?? ''), ...chat })
    for (const contact of set.contacts)
      into.contacts.set(contact.id, { ...into.contacts.get(contact.id), ...contact } as Contact)
    for (const message of set.messages) into.messages.set(message.key.id ?? '', message)
  })
}

/** Baileys' log lines at warn and above, to see what it refused and why. */
const capturingLogger = () => {
  const lines: string[] = []
  const logger = P(
    { level: 'warn', serializers: { error: P.stdSerializers.err } },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    }),
  )
  return { logger, lines }
}

/**
 * A download that never pauses its socket: Baileys abandons a bomb's download at 64 MiB, and Node
 * 20's fetch then stops reading (pauses) without aborting the request on this newer undici, which
 * keeps it open until the agent is torn down (an uncaught "terminated" then). Reading on lets the
 * small file's request complete; fetch drops what it no longer wants.
 */
const readToTheEnd = (handler: Dispatcher.DispatchHandler): Dispatcher.DispatchHandler =>
  new Proxy(handler, {
    get(target, property) {
      const value = Reflect.get(target, property)
      if (typeof value !== 'function') return value
      if (property !== 'onResponseData') return value.bind(target)
      return (controller: Dispatcher.DispatchController, chunk: Buffer) => {
        const unpausable = new Proxy(controller, {
          get: (c, key) => (key === 'pause' ? () => {} : Reflect.get(c, key)),
        })
        return value.call(target, unpausable, chunk)
      }
    },
  })

describe('the phone sends its seeded history at linking (real Baileys decoding every chunk)', () => {
  let sim: WhatsAppSimulator
  /**
   * History files are named by direct path only, so Baileys fetches them from mmg.whatsapp.net:
   * this dispatcher sends that host (and only it, besides the media host itself) to the
   * simulator's media host, trusting its CA. Nothing leaves loopback.
   */
  let dispatcher: Dispatcher
  let base: Agent
  const sockets: WASocket[] = []

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
    base = new Agent({ connect: { ca: sim.config.mediaCaPem } })
    const mediaOrigin = `https://${sim.config.mediaHost}`
    dispatcher = base.compose((dispatch) => (options, handler) => {
      const origin = String(options.origin)
      if (origin !== mediaOrigin && origin !== 'https://mmg.whatsapp.net')
        throw new Error(`the test fetches nothing but the media host, not ${origin}`)
      return dispatch({ ...options, origin: mediaOrigin }, readToTheEnd(handler))
    })
  })
  afterAll(async () => {
    for (const sock of sockets) closeSocket(sock)
    await base.close()
    await sim.stop()
  })

  /** Full sync when `days` is given (0: without a limit); Baileys downloads and decodes every chunk. */
  const historyConfig = (days?: number): Partial<UserFacingSocketConfig> => ({
    syncFullHistory: days !== undefined,
    // a field the project's Baileys patch adds to the socket config
    ...(days ? ({ fullSyncDaysLimit: days } as object) : {}),
    shouldSyncHistoryMessage: () => true,
    options: { dispatcher } as never,
  })

  /** Logs in with stored credentials, listening from the socket's first event. */
  const login = async (
    auth: AuthStore,
    extra: Partial<UserFacingSocketConfig>,
    into: Received,
    more?: (sock: WASocket) => void,
  ) => {
    const outcome = await openSocket(sim, auth, extra, undefined, (sock) => {
      collect(sock, into)
      more?.(sock)
    })
    expect(outcome.open).toBe(true)
    sockets.push(outcome.sock)
    return outcome.sock
  }

  /** QR pairing with the history settings, then the login that receives the history. */
  const link = async (
    phone: string,
    extra: Partial<UserFacingSocketConfig>,
    into: Received,
    more?: (sock: WASocket) => void,
  ) => {
    const auth = memoryAuth()
    let scanned = false
    const first = await openSocket(sim, auth, extra, (qr) => {
      if (!scanned) sim.scan(qr, phone)
      scanned = true
    })
    expect(first.open).toBe(false)
    return { sock: await login(auth, extra, into, more), auth }
  }

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
    const { sock } = await link(phone, historyConfig(10), got)
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
    const bytes = (await downloadMediaMessage(image!, 'buffer', { options: { dispatcher } } as never)) as Buffer
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
    await link(phone, historyConfig(0), got)
    const sent = await sim.account(phone).waitForHistoryAcknowledged()
    expect(new Set(sent.map((record) => record.syncType))).toEqual(
      new Set(['INITIAL_BOOTSTRAP', 'PUSH_NAME', 'RECENT', 'FULL']),
    )
    await expect.poll(() => got.messages.size, { timeout: 10_000 }).toBe(summary.messages)
    expect(Math.min(...[...got.messages.values()].map((m) => Number(m.messageTimestamp)))).toBe(summary.oldest)
    expect(sim.violations()).toEqual([])
  })

  it('without a full sync (linked by pairing code): only the bootstrap and the push names', async () => {
    const phone = '15557100003'
    const summary = await sim.seedHistory(phone, { chats: 4, messagesPerChat: 10, days: 5 })
    const got = received()
    const extra = historyConfig()
    const auth = memoryAuth()
    let code: Promise<string> | undefined
    const first = openSocket(sim, auth, extra, (_qr, sock) => {
      code ??= sock.requestPairingCode(phone)
    })
    await expect.poll(() => code, { timeout: 5000 }).toBeDefined()
    await sim.enterPairingCode(phone, await code!)
    expect((await first).open).toBe(false)
    await login(auth, extra, got)
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

  it('a client killed before acknowledging gets the unacknowledged notifications again at its next login', async () => {
    const phone = '15557100004'
    const summary = await sim.seedHistory(phone, { chats: 3, messagesPerChat: 20, days: 20, messagesPerChunk: 10 })
    const account = () => sim.account(phone)
    const extra = historyConfig(0)
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
    await login(auth, extra, got, (sock) =>
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

  it('a history bomb reaches the client, which refuses it at 64 MiB; a corrupt chunk is refused too; the simulator stays small', async () => {
    const phone = '15557100005'
    const got = received()
    const { logger, lines } = capturingLogger()
    await link(phone, { ...historyConfig(0), logger }, got)
    const account = sim.account(phone)
    const before = process.memoryUsage().arrayBuffers
    const bomb = await account.sendHistoryBlob({ syncType: 'RECENT', inflatedBytes: 100 * 1024 * 1024 })
    const file = sim.mediaUploads().at(-1)!
    expect(file.size).toBeLessThan(1024 * 1024)
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(50 * 1024 * 1024)
    await expect
      .poll(() => account.historySent().find((record) => record.id === bomb)?.nack, { timeout: 20_000 })
      .toBe('500')
    expect(lines.join('\n')).toContain('history blob inflates past 67108864 bytes')

    const corrupt = await account.sendHistoryBlob({ syncType: 'FULL', raw: Buffer.from('no zlib stream here') })
    await expect
      .poll(() => account.historySent().find((record) => record.id === corrupt)?.nack, { timeout: 10_000 })
      .toBe('500')
    expect(account.historySent().every((record) => !record.acknowledged)).toBe(true)
    expect(got.messages.size).toBe(0)
    expect(sim.violations()).toEqual([])
  })

  it('a gigabyte bomb is made streaming: about a megabyte stored, no gigabyte in memory', async () => {
    const phone = '15557100006'
    await link(phone, { ...historyConfig(0), logger: capturingLogger().logger }, received())
    const account = sim.account(phone)
    const before = process.memoryUsage().arrayBuffers
    let peak = before
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 5)
    const id = await account.sendHistoryBlob({ syncType: 'FULL', inflatedBytes: 1024 ** 3, progress: 7, chunkOrder: 3 })
    clearInterval(sampler)
    expect(peak - before).toBeLessThan(100 * 1024 * 1024)
    expect(sim.mediaUploads().at(-1)!.size).toBeLessThan(2 * 1024 * 1024)
    expect(account.historySent().find((record) => record.id === id)).toMatchObject({
      syncType: 'FULL',
      progress: 7,
      chunkOrder: 3,
    })
    // the device got it and refused it (past 64 MiB)
    await expect
      .poll(() => account.historySent().find((record) => record.id === id)?.nack, { timeout: 20_000 })
      .toBe('500')
  })

  it('checks peer_msg and hist_sync receipts: only for what the phone sent this device', async () => {
    const phone = '15557100007'
    await sim.seedHistory(phone, { chats: 1, messagesPerChat: 2, days: 1 })
    const { sock } = await link(phone, historyConfig(), received())
    const sent = await sim.account(phone).waitForHistoryAcknowledged()
    const own = `${sim.account(phone).lid}@lid`
    expect(sim.violations()).toEqual([])
    await sock.sendReceipt(own, undefined, ['3EB0NEVERSENT'], 'hist_sync')
    await sock.sendReceipt(own, undefined, ['3EB0NEVERSENT2'], 'peer_msg')
    await sock.sendReceipt('15550000000@s.whatsapp.net', undefined, [sent[0]!.id], 'hist_sync')
    await expect.poll(() => sim.violations().length, { timeout: 5000 }).toBe(3)
    expect(sim.violations().map((v) => [v.kind, v.detail])).toEqual([
      ['unknown-receipt-reference', expect.stringContaining('3EB0NEVERSENT, which')],
      ['unknown-receipt-reference', expect.stringContaining('peer_msg receipt for message 3EB0NEVERSENT2')],
      ['unknown-receipt-reference', expect.stringContaining('not the account itself')],
    ])
  })
})
