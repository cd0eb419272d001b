import { pollUntil } from '../support/poll'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ControlApi } from '../wa-sim/control-api'
import { WhatsAppSimulator } from '../wa-sim/simulator'
import { startGatewayProcess, type Spawned } from '../support/process'
import { queryFile } from '../support/sqlite-file'
import { tempDir } from '../support/temp-dir'
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver'

const ACCOUNT = '15550040001'
const CONTACT = '15551260001'
const BACKLOG = 25

/**
 * The outbox survives a crash: a gateway process with an undelivered backlog is killed with
 * SIGKILL (no shutdown code runs), and the next process on the same file delivers every event.
 */
describe('webhook events across a SIGKILL', () => {
  const dir = tempDir()
  const databasePath = `${dir.path}/gateway.db`
  let sim: WhatsAppSimulator
  let control: ControlApi
  let receiver: WebhookReceiver
  let gateway: Spawned | undefined

  let firstKey = ''
  const start = async () => {
    const started = await startGatewayProcess(databasePath, control.url, {
      WEBHOOK_ALLOW_HTTP: 'true',
      ALLOW_PRIVATE_ADDRESSES: 'true',
      WEBHOOK_RETRY_BASE_MS: '50',
      WEBHOOK_RETRY_MAX_MS: '200',
    })
    gateway = started.process
    firstKey ||= started.firstKey ?? ''
    return started.url
  }
  const eventIds = () =>
    queryFile<{ id: string; sequence: number }>(
      databasePath,
      'SELECT id, sequence FROM webhook_events ORDER BY sequence',
    )

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
    control = await ControlApi.start(sim)
    sim.addContact(CONTACT)
    receiver = await startWebhookReceiver()
  })
  afterAll(async () => {
    await gateway?.stop()
    await receiver.close()
    await control.stop()
    await sim.stop()
    dir.cleanup()
  })

  it('delivers every event recorded before the kill after the restart', async () => {
    receiver.respond = () => 503 // the endpoint is down: a backlog builds up
    const base = await start()
    const key = firstKey
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${base}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      })

    const connect = await api('/v1/session/connect', {
      method: 'POST',
      body: JSON.stringify({ sessionName: 'crash', webhookUrl: receiver.url('crash') }),
    })
    expect(connect.status).toBe(200)
    const { sessionId, webhookSecret, qrCode } = (await connect.json()) as Record<string, string>
    sim.scan(qrCode!, ACCOUNT)
    await pollUntil(
      async () => ((await (await api('/v1/session/all')).json()) as { sessions: { status: string }[] }).sessions,
      (sessions) => sessions[0]?.status === 'connected',
      { timeoutMs: 20_000, what: 'the session to connect' },
    )
    for (let i = 0; i < BACKLOG; i++) await sim.contact(CONTACT).send({ text: `backlog ${i}` }, { to: ACCOUNT })
    await pollUntil(
      () => queryFile(databasePath, "SELECT 1 FROM webhook_events WHERE type = 'message.received'").length,
      (stored) => stored >= BACKLOG,
      { timeoutMs: 20_000, what: 'the inbound messages in the outbox' },
    )
    // Disconnected, the session makes no new events after the restart: only the outbox can bring the backlog back.
    expect((await api(`/v1/session/disconnect/${sessionId}`, { method: 'DELETE' })).status).toBe(200)
    const recorded = eventIds()
    expect(recorded.length).toBeGreaterThan(BACKLOG)
    expect(receiver.events('crash', webhookSecret!)).toEqual([])
    expect(receiver.requests.length).toBeGreaterThan(0) // it was trying

    gateway!.child.kill('SIGKILL')
    await gateway!.stop()
    receiver.respond = () => 200
    await start()

    const delivered = await receiver.waitFor(
      'crash',
      webhookSecret!,
      (events) => recorded.every((row) => events.some((e) => e.eventId === row.id)),
      { timeoutMs: 30_000 },
    )
    expect(delivered.filter((e) => e.type === 'message.received').map((e) => e.data.content.text)).toEqual(
      Array.from({ length: BACKLOG }, (_, i) => `backlog ${i}`),
    )
    // In order, and nothing recorded before the kill is missing.
    const sequences = delivered.map((e) => e.sequence)
    expect(sequences).toEqual(recorded.map((row) => row.sequence))
    expect(delivered.every((e) => e.sessionId === sessionId)).toBe(true)
  }, 90_000)
})
