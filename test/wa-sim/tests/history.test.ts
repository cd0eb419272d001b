import type { Chat, Contact, UserFacingSocketConfig, WAMessage, WASocket } from '@whiskeysockets/baileys'
import { downloadMediaMessage, proto } from '@whiskeysockets/baileys'
import { createHash } from 'node:crypto'
import { Agent, type Dispatcher } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixture } from '../fixtures'
import { WhatsAppSimulator } from '../simulator'
import { closeSocket, memoryAuth, openSocket } from './harness'

const DAY = 86_400
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** What Baileys' own history decoder emitted, every `messaging-history.set` merged. */
interface Received {
  chats: Map<string, Chat>
  contacts: Map<string, Contact>
  messages: Map<string, WAMessage>
  events: number
  progress: (number | null | undefined)[]
}

const collect = (sock: WASocket, into: Received): void => {
  sock.ev.on('messaging-history.set', (set) => {
    into.events++
    into.progress.push(set.progress)
    for (const chat of set.chats) into.chats.set(chat.id, { ...into.chats.get(chat.id), ...chat })
    for (const contact of set.contacts)
      into.contacts.set(contact.id, { ...into.contacts.get(contact.id), ...contact } as Contact)
    for (const message of set.messages) into.messages.set(message.key.id!, message)
  })
}

const received = (): Received => ({
  chats: new Map(),
  contacts: new Map(),
  messages: new Map(),
  events: 0,
  progress: [],
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
      return dispatch({ ...options, origin: mediaOrigin }, handler)
    })
  })
  afterAll(async () => {
    for (const sock of sockets) closeSocket(sock)
    await base.close()
    await sim.stop()
  })

  const historyConfig = (days?: number): Partial<UserFacingSocketConfig> => ({
    syncFullHistory: days !== undefined,
    ...(days ? ({ fullSyncDaysLimit: days } as object) : {}),
    shouldSyncHistoryMessage: () => true,
    options: { dispatcher } as never,
  })

  /** QR pairing with the history settings, listening to the logged-in socket from its first event. */
  const link = async (phone: string, extra: Partial<UserFacingSocketConfig>, into: Received) => {
    const auth = memoryAuth()
    let scanned = false
    const first = await openSocket(sim, auth, extra, (qr) => {
      if (!scanned) sim.scan(qr, phone)
      scanned = true
    })
    expect(first.open).toBe(false)
    const second = await openSocket(sim, auth, extra, undefined, (sock) => collect(sock, into))
    expect(second.open).toBe(true)
    sockets.push(second.sock)
    return { sock: second.sock, auth }
  }

  it('full sync with a day limit: bootstrap, push names, recent and full chunks, nothing older than the limit', async () => {
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
    const got = received()
    const { sock } = await link(phone, historyConfig(10), got)
    const sent = await sim.account(phone).waitForHistoryAcknowledged()
    console.log(sent)
    const expected = sim.historyMessagesWithin(phone, 10)
    await expect.poll(() => got.messages.size, { timeout: 10_000 }).toBe(expected)
    expect(expected).toBeLessThan(summary.messages)
    expect(sent.reduce((sum, record) => sum + record.messages, 0)).toBe(expected)
    console.log(got.chats.size, got.contacts.size, got.events, got.progress)
    expect(sim.violations()).toEqual([])
    void sock
    void proto
    void fixture
    void sha256
    void downloadMediaMessage
    void DAY
  })
})
