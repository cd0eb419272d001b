import { pollUntil } from '../support/poll'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ControlApi } from '../wa-sim/control-api'
import { WhatsAppSimulator } from '../wa-sim/simulator'
import { startGatewayProcess, type Spawned } from '../support/process'
import { queryFile } from '../support/sqlite-file'
import { tempDir } from '../support/temp-dir'
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver'

const ACCOUNT = '15550040002'
const CONTACT = '15551260002'
const BACKLOG = 15
const HOOKS = ['primary', 'extra', 'workspace'] as const

/**
 * Every webhook's stream survives a crash: a session's webhookUrl, another webhook of the
 * session and one of the workspace, each with a backlog when the process is killed with SIGKILL;
 * the next process on the same file delivers every event to each, in order.
 */
describe('three webhooks’ deliveries across a SIGKILL', () => {
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

  it('delivers every pending event to each webhook after the restart, in order', async () => {
    receiver.respond = () => 503 // every endpoint is down: a backlog builds up for each
    const base = await start()
    const key = firstKey
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${base}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      })
    const add = async (path: string, name: string) => {
      const answer = await api(path, { method: 'POST', body: JSON.stringify({ url: receiver.url(name) }) })
      expect(answer.status).toBe(200)
      return ((await answer.json()) as { secret: string }).secret
    }

    const secrets: Record<string, string> = { workspace: await add('/v1/webhooks', 'workspace') }
    const connect = await api('/v1/session/connect', {
      method: 'POST',
      body: JSON.stringify({ sessionName: 'crash3', webhookUrl: receiver.url('primary') }),
    })
    expect(connect.status).toBe(200)
    const { sessionId, webhookSecret, qrCode } = (await connect.json()) as Record<string, string>
    secrets.primary = webhookSecret!
    secrets.extra = await add(`/v1/session/${sessionId}/webhooks`, 'extra')
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
    expect((await api(`/v1/session/disconnect/${sessionId}`, { method: 'DELETE' })).status).toBe(200)
    const recorded = eventIds()
    // What each webhook has pending: every event for the two there from the start, those since
    // it was added (the messages among them) for the session's second one.
    const pendingFor = (which: string) =>
      queryFile<{ id: string; sequence: number }>(
        databasePath,
        `SELECT e.id, e.sequence FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
         WHERE d.status = 'pending' AND ${which} ORDER BY e.sequence`,
      )
    const ofWebhooks = (scope: string) =>
      `d.webhook_id IN (SELECT id FROM webhook_subscriptions WHERE session_id ${scope})`
    const expected = {
      primary: pendingFor('d.webhook_id IS NULL'),
      extra: pendingFor(ofWebhooks('IS NOT NULL')),
      workspace: pendingFor(ofWebhooks('IS NULL')),
    }
    expect(expected.primary).toEqual(recorded)
    expect(expected.workspace).toEqual(recorded)
    expect(expected.extra.length).toBeGreaterThanOrEqual(BACKLOG)
    for (const hook of HOOKS) expect(receiver.events(hook, secrets[hook]!)).toEqual([])

    gateway!.child.kill('SIGKILL')
    await gateway!.stop()
    receiver.respond = () => 200
    await start()

    for (const hook of HOOKS) {
      const delivered = await receiver.waitFor(
        hook,
        secrets[hook]!,
        (events) => expected[hook].every((row) => events.some((e) => e.eventId === row.id)),
        { timeoutMs: 30_000 },
      )
      // In order (a repeat may only follow itself: at least once), and nothing recorded before the kill is missing.
      const firsts = delivered.filter((e, i) => i === 0 || e.eventId !== delivered[i - 1]!.eventId)
      expect(
        firsts.map((e) => e.sequence),
        hook,
      ).toEqual(expected[hook].map((row) => row.sequence))
      expect(
        firsts.filter((e) => e.type === 'message.received').map((e) => e.data.content.text),
        hook,
      ).toEqual(Array.from({ length: BACKLOG }, (_, i) => `backlog ${i}`))
    }
  }, 120_000)
})
