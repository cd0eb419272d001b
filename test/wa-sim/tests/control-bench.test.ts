import type { WASocket } from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ControlApi } from '../control-api'
import { WhatsAppSimulator } from '../simulator'
import { closeSocket, pairByQr } from './harness'

const post = async (base: string, path: string, body: unknown): Promise<{ status: number; json: any }> => {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, json: await response.json() }
}

describe('control API bench route', () => {
  let sim: WhatsAppSimulator
  let api: ControlApi
  let sock: WASocket | undefined
  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
    api = await ControlApi.start(sim)
  })
  afterAll(async () => {
    closeSocket(sock)
    await api.stop()
    await sim.stop()
  })

  it('makes a contact send N texts in order, each with its index and send time, at the rate asked', async () => {
    sim.addContact('15556100001')
    const paired = await pairByQr(sim, '15556100002')
    sock = paired.sock
    const texts: string[] = []
    sock.ev.on('messages.upsert', ({ messages }) => {
      for (const m of messages) if (m.message?.conversation) texts.push(m.message.conversation)
    })
    const before = Date.now()
    const burst = await post(api.url, '/bench/contacts/15556100001/texts', {
      to: '15556100002',
      count: 20,
      perSecond: 100,
      prefix: 'probe',
    })
    expect(burst.status).toBe(200)
    expect(burst.json).toMatchObject({ sent: 20 })
    // 20 at 100/s: the last one is due 190 ms after the first
    expect(burst.json.finishedAt - burst.json.startedAt).toBeGreaterThanOrEqual(185)
    await expect.poll(() => texts.length, { timeout: 5_000 }).toBe(20)
    const parsed = texts.map((t) => /^probe (\d+) (\d{13})$/.exec(t))
    expect(parsed.map((m) => Number(m?.[1]))).toEqual(Array.from({ length: 20 }, (_, i) => i))
    for (const m of parsed) expect(Number(m![2])).toBeGreaterThanOrEqual(before)
  })

  it('refuses unknown fields, bad counts and prefixes, an unknown contact or account with a 4xx', async () => {
    const path = '/bench/contacts/15556100001/texts'
    expect((await post(api.url, path, { to: '15556100002', count: 0 })).status).toBe(400)
    expect((await post(api.url, path, { to: '15556100002', count: 1.5 })).status).toBe(400)
    expect((await post(api.url, path, { to: '15556100002', perSecond: -1 })).status).toBe(400)
    expect((await post(api.url, path, { to: '15556100002', prefix: 'two words' })).status).toBe(400)
    expect((await post(api.url, path, { to: '15556100002', text: 'x' })).json.message).toContain('"text"')
    expect((await post(api.url, path, { count: 1 })).status).toBe(400)
    expect((await post(api.url, path, { to: '15550000999', count: 1 })).status).toBe(404)
    expect((await post(api.url, '/bench/contacts/15550000998/texts', { to: '15556100002' })).status).toBe(404)
  })
})
