import type { WASocket } from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ControlApi } from '../control-api'
import { WhatsAppSimulator } from '../simulator'
import { closeSocket, memoryAuth, openSocket } from './harness'

const call = async (base: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, json: (await response.json()) as any }
}

describe('seeding a history: the control API, strictly, and how fast', () => {
  let sim: WhatsAppSimulator
  let api: ControlApi
  const sockets: WASocket[] = []
  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
    api = await ControlApi.start(sim)
  })
  afterAll(async () => {
    for (const sock of sockets) closeSocket(sock)
    await api.stop()
    await sim.stop()
  })

  /** A client shows its QR, the control API scans it for `phone`; resolves once logged in. */
  const linkOverHttp = async (phone: string) => {
    const auth = memoryAuth()
    let scanned: ReturnType<typeof call> | undefined
    const first = await openSocket(sim, auth, {}, (qr) => {
      scanned ??= call(api.url, 'POST', '/scan', { qr, phone })
    })
    expect((await scanned!).json.phone).toBe(phone)
    expect(first.code).toBe(515)
    const second = await openSocket(sim, auth)
    sockets.push(second.sock)
    return second.sock
  }

  it('POST /history seeds a phone that then scans; GET /accounts/{phone}/history shows what was sent', async () => {
    const seeded = await call(api.url, 'POST', '/history', {
      phone: '15557200001',
      chats: 3,
      messagesPerChat: 12,
      days: 7,
      groups: 1,
      media: 2,
    })
    expect(seeded.status).toBe(200)
    expect(seeded.json).toMatchObject({ phone: '15557200001', messages: 48 })
    expect(seeded.json.chats).toHaveLength(3)
    expect(seeded.json.chats[0]).toEqual({
      jid: `${seeded.json.chats[0].lid}@lid`,
      phone: expect.stringMatching(/^\d+$/),
      lid: expect.stringMatching(/^\d+$/),
      name: expect.any(String),
      pushName: expect.any(String),
      addressing: 'lid',
      messages: 12,
      unread: 0,
      archived: false,
      pinned: true,
      muted: false,
      oldest: expect.any(Number),
      newest: expect.any(Number),
    })
    expect(seeded.json.chats[1].jid).toBe(`${seeded.json.chats[1].phone}@s.whatsapp.net`)
    expect(seeded.json.groups).toEqual([
      expect.objectContaining({ jid: expect.stringMatching(/@g\.us$/), messages: 12, participants: expect.any(Array) }),
    ])
    expect(seeded.json.mediaMessageIds).toHaveLength(6)
    expect((await call(api.url, 'GET', `/groups/${seeded.json.groups[0].jid}`)).status).toBe(200)

    await linkOverHttp('15557200001')
    // Baileys asks for a full sync by default (without a day limit): everything, in four chunks
    await sim.account('15557200001').waitForHistoryAcknowledged()
    const history = await call(api.url, 'GET', '/accounts/15557200001/history')
    expect(history.json.map((record: { syncType: string }) => record.syncType)).toEqual([
      'INITIAL_BOOTSTRAP',
      'PUSH_NAME',
      'RECENT',
      'FULL',
    ])
    expect(history.json.reduce((sum: number, record: { messages: number }) => sum + record.messages, 0)).toBe(48)
    expect(history.json[0]).toMatchObject({ chunkOrder: 1, messages: 4 * 3, acknowledged: true })

    // once linked, the phone's history is fixed
    const again = await call(api.url, 'POST', '/history', {
      phone: '15557200001',
      chats: 1,
      messagesPerChat: 1,
      days: 1,
    })
    expect(again.status).toBe(409)
    expect(again.json.error).toBe('account_linked')
    expect(sim.violations()).toEqual([])
  })

  it('POST /history refuses what is not a sane seed with 400, a phone seeded twice or a contact with 409', async () => {
    const good = { phone: '15557200002', chats: 2, messagesPerChat: 5, days: 3 }
    const refused: [Record<string, unknown>, number, string][] = [
      [{ ...good, chats: undefined }, 400, '"chats"'],
      [{ ...good, chats: 1001 }, 400, '"chats"'],
      [{ ...good, chats: -1 }, 400, '"chats"'],
      [{ ...good, chats: '2' }, 400, '"chats"'],
      [{ ...good, messagesPerChat: 0 }, 400, '"messagesPerChat"'],
      [{ ...good, messagesPerChat: 100_001 }, 400, '"messagesPerChat"'],
      [{ ...good, days: 0 }, 400, '"days"'],
      [{ ...good, days: 1.5 }, 400, '"days"'],
      [{ ...good, days: 3651 }, 400, '"days"'],
      [{ ...good, groups: 101 }, 400, '"groups"'],
      [{ ...good, media: 6 }, 400, '"media"'],
      [{ ...good, chats: 1000, messagesPerChat: 100, media: 11 }, 400, 'files'],
      [{ ...good, messagesPerChunk: 0 }, 400, '"messagesPerChunk"'],
      [{ ...good, phone: '+1 555 720 0002' }, 400, '"phone"'],
      [{ ...good, phone: undefined }, 400, '"phone"'],
      [{ ...good, colour: 'blue' }, 400, '"colour"'],
    ]
    for (const [body, status, mentions] of refused) {
      const answer = await call(api.url, 'POST', '/history', body)
      expect([answer.status, answer.json.error], JSON.stringify(body)).toEqual([status, 'invalid_request'])
      expect(answer.json.message).toContain(mentions)
    }
    expect((await call(api.url, 'POST', '/history', good)).status).toBe(200)
    const twice = await call(api.url, 'POST', '/history', good)
    expect([twice.status, twice.json.error]).toEqual([409, 'history_seeded'])
    sim.addContact('15557200003')
    const contact = await call(api.url, 'POST', '/history', { ...good, phone: '15557200003' })
    expect([contact.status, contact.json.error]).toEqual([409, 'phone_in_use'])
  })

  it('POST /history/blob sends a hand-made history file to a linked device, strictly', async () => {
    await linkOverHttp('15557200004')
    const base = { phone: '15557200004', syncType: 'RECENT' }
    const refused: [Record<string, unknown>, number, string][] = [
      [{ ...base, syncType: 'EVERYTHING', inflatedBytes: 10 }, 400, '"syncType"'],
      [{ ...base }, 400, 'exactly one'],
      [{ ...base, inflatedBytes: 10, raw: 'AAAA' }, 400, 'exactly one'],
      [{ ...base, inflatedBytes: 0 }, 400, '"inflatedBytes"'],
      [{ ...base, inflatedBytes: 10, progress: 101 }, 400, '"progress"'],
      [{ ...base, inflatedBytes: 10, chunkOrder: 0 }, 400, '"chunkOrder"'],
      [{ ...base, raw: 'not base64!' }, 400, '"raw"'],
      [{ ...base, inflatedBytes: 10, extra: true }, 400, '"extra"'],
      [{ ...base, phone: '15557209999', inflatedBytes: 10 }, 404, 'no account'],
    ]
    for (const [body, status, mentions] of refused) {
      const answer = await call(api.url, 'POST', '/history/blob', body)
      expect(answer.status, JSON.stringify(body)).toBe(status)
      expect(answer.json.message).toContain(mentions)
    }
    const sent = await call(api.url, 'POST', '/history/blob', {
      ...base,
      raw: Buffer.from('garbage').toString('base64'),
    })
    expect(sent.status).toBe(200)
    const history = await call(api.url, 'GET', '/accounts/15557200004/history')
    expect(history.json).toEqual([expect.objectContaining({ id: sent.json.id, syncType: 'RECENT', progress: 100 })])
  })

  it('seeds 10 phones × 22,000 messages in seconds; one of them links and gets them all in 1,000-message chunks', async () => {
    const started = performance.now()
    const phones = Array.from({ length: 10 }, (_, i) => `1555730${String(i).padStart(4, '0')}`)
    for (const phone of phones) {
      const summary = await sim.seedHistory(phone, { chats: 20, messagesPerChat: 1000, days: 365, groups: 2 })
      expect(summary.messages).toBe(22_000)
    }
    const seeding = performance.now() - started
    expect(seeding).toBeLessThan(1000)

    const linking = performance.now()
    await linkOverHttp(phones[0]!)
    const sent = await sim.account(phones[0]!).waitForHistoryAcknowledged(60_000)
    expect(sent.reduce((sum, record) => sum + record.messages, 0)).toBe(22_000)
    expect(sent.length).toBeGreaterThanOrEqual(22)
    console.info(
      `seeded 10 × 22,000 messages in ${Math.round(seeding)} ms; linked and sent in ${Math.round(performance.now() - linking)} ms`,
    )
  })
})
