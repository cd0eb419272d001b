import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { queryFile } from '../../../support/sqlite-file'
import { startSimulatedGateway, type SimulatedGateway } from '../../../support/simulated-gateway'
import { setTimeout as sleep } from 'node:timers/promises'

const ACCOUNT = '15550043001'

/**
 * What a send answers when WhatsApp does not take it: one rule (docs/api.md "What a send answers"). A 200 means
 * WhatsApp has the message; anything else leaves nothing behind, except a send past
 * SEND_TIMEOUT_MS, whose record stays and answers the client's retry.
 */
describe('a send WhatsApp does not take', () => {
  let t: SimulatedGateway
  let sessionId: string
  const account = () => t.sim.account(ACCOUNT)
  const events = (messageId: string) =>
    queryFile<{ body: string }>(t.databasePath, "SELECT body FROM webhook_events WHERE type LIKE 'message.%'")
      .map((row) => JSON.parse(row.body) as { data: { messageId: string; status?: string; statusReason?: string } })
      .filter((event) => event.data.messageId === messageId)
  const records = () =>
    queryFile<{ id: string; status: string }>(
      t.databasePath,
      "SELECT id, status FROM messages WHERE direction = 'outbound'",
    )

  beforeAll(async () => {
    t = await startSimulatedGateway({ config: { queryTimeoutMs: 1_500, sendTimeoutMs: 600, sendAckTimeoutMs: 800 } })
    sessionId = await t.pairByQr('contract', ACCOUNT)
  })
  afterAll(() => t.close())

  it('answers 409 when the connection drops before the message is handed over, and records nothing', async () => {
    const stranger = '15551263001' // a first message: Baileys must ask WhatsApp for the contact's devices
    t.sim.addContact(stranger)
    account().fault('unresponsive')
    const send = t.post(
      '/v1/message/text',
      { sessionId, phone: stranger, message: 'lost in the drop' },
      { headers: { 'idempotency-key': 'drop-1' } },
    )
    await sleep(200)
    account().fault('drop')
    const answer = await send
    account().clearFaults()
    expect(answer.status).toBe(409)
    expect(answer.body).toMatchObject({
      error: 'session_not_connected',
      message: expect.stringMatching(/nothing was sent or recorded/),
    })
    expect(records()).toEqual([])
    expect(queryFile(t.databasePath, "SELECT 1 FROM webhook_events WHERE type LIKE 'message.%'")).toEqual([])
    expect(queryFile(t.databasePath, "SELECT 1 FROM idempotency_keys WHERE key = 'drop-1'")).toEqual([])

    await t.waitForStatus(sessionId, 'connected')
    const again = await t.post(
      '/v1/message/text',
      { sessionId, phone: stranger, message: 'lost in the drop' },
      { headers: { 'idempotency-key': 'drop-1' } },
    )
    expect(again.status).toBe(200)
    await t.sim.contact(stranger).waitForMessage((m) => m.id === again.body.messageId)
    expect(events(again.body.messageId).map((e) => e.data.status)).toContain('pending')
  })

  it('answers 504 past SEND_TIMEOUT_MS naming the record, which a retry with the same key answers', async () => {
    const stranger = '15551263002'
    t.sim.addContact(stranger)
    account().fault('unresponsive')
    const late = await t.post(
      '/v1/message/text',
      { sessionId, phone: stranger, message: 'slow' },
      { headers: { 'idempotency-key': 'slow-1' } },
    )
    expect(late.status).toBe(504)
    expect(late.body).toMatchObject({ error: 'upstream_timeout', details: { status: 'pending' } })
    const messageId = late.body.details.messageId as string
    expect((await t.get(`/v1/message/${messageId}?sessionId=${sessionId}`)).body).toMatchObject({
      messageId,
      status: 'pending',
    })

    const retry = await t.post(
      '/v1/message/text',
      { sessionId, phone: stranger, message: 'slow' },
      { headers: { 'idempotency-key': 'slow-1' } },
    )
    expect(retry.status).toBe(200)
    expect(retry.body.messageId).toBe(messageId)
    account().clearFaults()
    // The hand-over ends one way or the other, and says so: never pending for ever, never two records.
    await vi.waitFor(
      () =>
        expect(events(messageId).map((e) => e.data.status)).toEqual(
          expect.arrayContaining([expect.stringMatching(/^(pending|failed)$/)]),
        ),
      {
        timeout: 10_000,
      },
    )
    expect(records().filter((r) => r.id === messageId)).toHaveLength(1)
  })

  it('fails a send WhatsApp took but never acknowledged after SEND_ACK_TIMEOUT_MS, never pending for ever', async () => {
    const known = '15551263003'
    t.sim.addContact(known)
    const first = await t.post('/v1/message/text', { sessionId, phone: known, message: 'hello' })
    await t.waitForRecord(sessionId, first.body.messageId, (r) => r.status === 'sent')
    account().fault('unresponsive') // the socket stays open; the server answers nothing
    const lost = await t.post('/v1/message/text', { sessionId, phone: known, message: 'into the void' })
    expect(lost.status).toBe(200)
    expect(lost.body.status).toBe('pending')
    const failed = await t.waitForRecord(sessionId, lost.body.messageId, (r) => r.status === 'failed', 10_000)
    expect(failed.statusReason).toBe('no_server_ack')
    expect(events(lost.body.messageId).map((e) => [e.data.status, e.data.statusReason])).toEqual([
      ['pending', null],
      ['failed', 'no_server_ack'],
    ])
    account().clearFaults()
  })
})
