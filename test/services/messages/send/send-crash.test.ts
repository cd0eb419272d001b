import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ControlApi } from '../../../wa-sim/control-api'
import { WhatsAppSimulator } from '../../../wa-sim/simulator'
import { startGatewayProcess, type Spawned } from '../../../support/process'
import { queryFile } from '../../../support/sqlite-file'
import { tempDir } from '../../../support/temp-dir'
import { pollUntil } from '../../../support/poll'
import { setTimeout as sleep } from 'node:timers/promises'

const ACCOUNT = '15550044001'
const STRANGERS = Array.from({ length: 5 }, (_, i) => `1555126400${i}`)

/** Sends in flight when the process dies never stay `pending` for ever, and a keyed retry sends once. */
describe('sends across a SIGKILL', () => {
  const dir = tempDir()
  const databasePath = `${dir.path}/gateway.db`
  let sim: WhatsAppSimulator
  let control: ControlApi
  let gateway: Spawned | undefined
  let base = ''
  let key = ''

  const start = async () => {
    const started = await startGatewayProcess(databasePath, control.url, { WA_QUERY_TIMEOUT_MS: '60000' })
    gateway = started.process
    base = started.url
    key ||= started.firstKey ?? ''
  }
  const api = async (path: string, init: RequestInit & { idempotencyKey?: string } = {}) => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    if (init.idempotencyKey) headers['idempotency-key'] = init.idempotencyKey
    const response = await fetch(`${base}${path}`, { ...init, headers })
    return { status: response.status, body: (await response.json()) as any }
  }
  const status = async () => (await api('/v1/session/all')).body.sessions[0]?.status

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
    control = await ControlApi.start(sim)
    for (const phone of STRANGERS) sim.addContact(phone)
    await start()
    const connect = await api('/v1/session/connect', {
      method: 'POST',
      body: JSON.stringify({ sessionName: 'crash', webhookUrl: 'https://hooks.invalid/crash' }),
    })
    sim.scan(connect.body.qrCode, ACCOUNT)
    await pollUntil(status, (s) => s === 'connected', { timeoutMs: 30_000, what: 'the session to connect' })
  }, 60_000)
  afterAll(async () => {
    await gateway?.stop()
    await control.stop()
    await sim.stop()
    dir.cleanup()
  })

  it('fails what was never handed over with gateway_restarted, and a keyed retry then sends it once', async () => {
    // WhatsApp stops answering: first messages to new contacts wait on its device queries.
    sim.account(ACCOUNT).fault('unresponsive')
    const sessionId = (await api('/v1/session/all')).body.sessions[0].sessionId as string
    const inFlight = STRANGERS.map((phone, i) =>
      api('/v1/message/text', {
        method: 'POST',
        body: JSON.stringify({ sessionId, phone, message: `in flight ${i}` }),
        idempotencyKey: `crash-${i}`,
      }).catch(() => undefined),
    )
    await pollUntil(
      () => queryFile(databasePath, "SELECT 1 FROM messages WHERE status = 'pending'").length,
      (n) => n === STRANGERS.length,
      {
        what: 'every send to be recorded',
      },
    )
    gateway!.child.kill('SIGKILL')
    await gateway!.stop()
    await Promise.all(inFlight)
    sim.account(ACCOUNT).clearFaults()

    await start()
    const failed = queryFile<{ id: string; status: string; status_reason: string }>(
      databasePath,
      "SELECT id, status, status_reason FROM messages WHERE direction = 'outbound'",
    )
    expect(failed).toHaveLength(STRANGERS.length)
    expect(failed.every((row) => row.status === 'failed' && row.status_reason === 'gateway_restarted')).toBe(true)
    const announced = queryFile<{ body: string }>(
      databasePath,
      "SELECT body FROM webhook_events WHERE type = 'message.status'",
    ).map((row) => JSON.parse(row.body).data)
    expect(
      announced.filter((event) => event.status === 'failed' && event.statusReason === 'gateway_restarted'),
    ).toHaveLength(STRANGERS.length)

    await pollUntil(status, (s) => s === 'connected', { timeoutMs: 30_000, what: 'the session to reconnect' })
    for (const [i, phone] of STRANGERS.entries()) {
      const body = JSON.stringify({ sessionId, phone, message: `in flight ${i}` })
      const retry = await api('/v1/message/text', { method: 'POST', body, idempotencyKey: `crash-${i}` })
      expect(retry.status).toBe(200)
      const again = await api('/v1/message/text', { method: 'POST', body, idempotencyKey: `crash-${i}` })
      expect(again.body.messageId).toBe(retry.body.messageId) // the key now answers the message that went out
      await sim.contact(phone).waitForMessage((m) => m.id === retry.body.messageId)
    }
    await sleep(300)
    for (const phone of STRANGERS) expect(sim.contact(phone).inbox()).toHaveLength(1) // each got it once
  }, 90_000)
})
