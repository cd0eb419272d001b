import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryFile } from '../../../support/sqlite-file'
import { startSimulatedGateway, type SimulatedGateway } from '../../../support/simulated-gateway'
import { setTimeout as sleep } from 'node:timers/promises'

const ACCOUNT = '15550015001'
const CONTACT = '15551235001'

describe('Idempotency-Key on sends', () => {
  let t: SimulatedGateway
  let sessionId: string
  beforeAll(async () => {
    t = await startSimulatedGateway()
    t.sim.addContact(CONTACT)
    sessionId = await t.pairByQr('idem', ACCOUNT)
  }, 60_000)
  afterAll(() => t.close())

  const send = (key: string, message: string) =>
    t.post('/v1/message/text', { sessionId, phone: CONTACT, message }, { headers: { 'Idempotency-Key': key } })
  const copiesOf = (text: string) =>
    t.sim
      .contact(CONTACT)
      .inbox()
      .filter((m) => (m.message.conversation ?? m.message.extendedTextMessage?.text) === text).length

  it('answers the first record again for a retry and sends once', async () => {
    const first = await send('order-1', 'once only')
    await t.sim.contact(CONTACT).waitForMessage((m) => m.id === first.body.messageId)
    const retry = await send('order-1', 'once only')
    expect(retry.status).toBe(200)
    expect(retry.body.messageId).toBe(first.body.messageId)
    await sleep(200)
    expect(copiesOf('once only')).toBe(1)
  })

  it('lets concurrent retries wait for the first instead of sending twice', async () => {
    const answers = await Promise.all([send('order-2', 'racing'), send('order-2', 'racing'), send('order-2', 'racing')])
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200])
    expect(new Set(answers.map((a) => a.body.messageId)).size).toBe(1)
    await t.sim.contact(CONTACT).waitForMessage((m) => m.id === answers[0]!.body.messageId)
    await sleep(200)
    expect(copiesOf('racing')).toBe(1)
  })

  it('refuses the same key with another body (409), and keys are per workspace', async () => {
    await send('order-3', 'first body')
    const reused = await send('order-3', 'second body')
    expect(reused.status).toBe(409)
    expect(reused.body.error).toBe('idempotency_key_reused')
    expect(copiesOf('second body')).toBe(0)
    const stored = queryFile(
      t.databasePath,
      'SELECT workspace_id, message_id FROM idempotency_keys WHERE key = ?',
      'order-3',
    )
    expect(stored).toHaveLength(1)
  })

  it('releases the key when the send fails, so a corrected retry goes through', async () => {
    const failed = await t.post(
      '/v1/message/text',
      { sessionId, phone: CONTACT, message: 'fixed', quoteId: 'NOPE' },
      { headers: { 'Idempotency-Key': 'order-4' } },
    )
    expect(failed.status).toBe(404)
    const fixed = await send('order-4', 'fixed')
    expect(fixed.status).toBe(200)
  })

  it('sends again without a key', async () => {
    const a = await t.post('/v1/message/text', { sessionId, phone: CONTACT, message: 'twice' })
    const b = await t.post('/v1/message/text', { sessionId, phone: CONTACT, message: 'twice' })
    expect(a.body.messageId).not.toBe(b.body.messageId)
  })
})
