import parsePrometheusTextFormat from 'parse-prometheus-text-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveConfig } from '../../src/config'
import { startTestGateway } from '../support/gateway'
import { pollUntil } from '../support/poll'
import { startSimulatedGateway, type SimulatedGateway } from '../support/simulated-gateway'
import { fastWebhooks, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver'

const TOKEN = 'metrics-token-0123456789abcdef'
const ACCOUNT = '15550017101'
const BROKEN_ACCOUNT = '15550017102'
const CONTACT = '15551237101'
const OTHER_CONTACT = '15551237102'
const SENT_TEXT = 'metrics outbound text 7f3a'
const INBOUND_TEXT = 'metrics inbound text 9c1e'
const defaults = resolveConfig()

interface Family {
  name: string
  type: string
  metrics: { labels?: Record<string, string>; value?: string; count?: string; sum?: string }[]
}

/** The families every scrape must show after the scripted run. */
const FAMILIES = [
  'wa_sessions',
  'wa_session_status_changes_total',
  'wa_messages_sent_total',
  'wa_message_statuses_total',
  'wa_message_server_ack_seconds',
  'wa_messages_received_total',
  'wa_history_chunks_total',
  'wa_history_messages_total',
  'wa_webhook_deliveries_total',
  'wa_webhook_delivery_latency_seconds',
  'wa_webhook_outbox_pending',
  'wa_contact_checks_total',
  'wa_quota_refusals_total',
  'wa_sqlite_checkpoint_seconds_total',
  'wa_sqlite_wal_pages',
  'http_requests_total',
  'http_request_duration_seconds',
  'nodejs_eventloop_lag_seconds',
  'process_resident_memory_bytes',
  'process_cpu_seconds_total',
  'nodejs_heap_size_used_bytes',
]

/**
 * GET /metrics after a scripted run through Baileys and the simulator (connect, send, receipt,
 * inbound, webhooks delivered and failed, a contact check, a quota refusal, a 4xx): read by a
 * Prometheus text parser, every family present, values that move, no identifying label.
 */
describe('GET /metrics', () => {
  let t: SimulatedGateway
  let receiver: WebhookReceiver
  let sessionId: string
  let brokenId: string
  let webhookSecret: string

  const scrape = async (authorization: string | null = `Bearer ${TOKEN}`) => {
    const response = await t.request('/metrics', { headers: authorization ? { authorization } : {} })
    return { status: response.status, type: response.headers.get('content-type'), text: await response.text() }
  }
  const families = async () => {
    const { status, text } = await scrape()
    expect(status).toBe(200)
    return { text, parsed: parsePrometheusTextFormat(text) as Family[] }
  }
  const value = (parsed: Family[], name: string, labels: Record<string, string> = {}) => {
    const family = parsed.find((f) => f.name === name)
    const sample = family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
    return Number(sample?.value ?? sample?.count ?? Number.NaN)
  }

  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    receiver.respond = (request) => (request.path === '/broken' ? 500 : 200)
    t = await startSimulatedGateway({
      config: {
        metricsToken: TOKEN,
        webhookAllowHttp: true,
        allowPrivateAddresses: true,
        webhooks: fastWebhooks({ retryHours: 0.0005 }),
        plans: { ...defaults.plans, free: { ...defaults.plans.free, dailyContactChecks: 2 } },
      },
    })
    t.sim.addContact(CONTACT)
    t.sim.addContact(OTHER_CONTACT)
    ;({ sessionId, webhookSecret } = await t.linkSession({
      phone: ACCOUNT,
      connect: { sessionName: 'metered', webhookUrl: receiver.url('good') },
    }))
    brokenId = (
      await t.linkSession({
        phone: BROKEN_ACCOUNT,
        connect: { sessionName: 'broken-hook', webhookUrl: receiver.url('broken') },
      })
    ).sessionId
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await receiver.close()
  })

  it('is 401 without the token, with a wrong one or with a workspace key, naming the scheme', async () => {
    for (const authorization of [null, 'Bearer wrong-token-0123456789', `Bearer ${t.key}`, `Basic ${TOKEN}`]) {
      const { status, text } = await scrape(authorization)
      expect(status, String(authorization)).toBe(401)
      expect(JSON.parse(text).error).toBe('unauthorized')
    }
  })

  it('shows every family after a scripted run, with values that follow it', async () => {
    const before = await families()
    const sentBefore = value(before.parsed, 'wa_messages_sent_total', { type: 'text', outcome: 'handed_over' }) || 0

    const send = await t.post('/v1/message/text', { sessionId, phone: CONTACT, message: SENT_TEXT })
    expect(send.status).toBe(200)
    await t.sim.contact(CONTACT).waitForMessage((m) => m.id === send.body.messageId)
    t.sim.contact(CONTACT).receipt(send.body.messageId, 'delivered')
    await t.waitForRecord(sessionId, send.body.messageId, (r) => r.status === 'delivered')
    t.sim.contact(OTHER_CONTACT).send({ text: INBOUND_TEXT }, { to: ACCOUNT })
    await pollUntil(
      async () => (await t.get(`/v1/message/all?sessionId=${sessionId}&direction=inbound`)).body.messages,
      (messages: unknown[]) => messages.length === 1,
      { what: 'the inbound record' },
    )
    const check = await t.post('/v1/contact/check', { sessionId, phones: [CONTACT, '15559990000'] })
    expect(check.status).toBe(200)
    const refused = await t.post('/v1/contact/check', { sessionId, phones: [OTHER_CONTACT] })
    expect([refused.status, refused.body.error]).toEqual([429, 'daily_limit_exceeded'])
    const missing = await t.request('/v1/session/update/ses_nope_1234', {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}` },
      body: JSON.stringify({ autoRejectCalls: true }),
    })
    expect(missing.status).toBe(404)
    await receiver.waitFor('good', webhookSecret, (events) => events.some((e) => e.type === 'message.received'))
    // The broken endpoint's deliveries are retried for ~2 s, then given up.
    await pollUntil(
      async () => value((await families()).parsed, 'wa_webhook_deliveries_total', { outcome: 'failed' }),
      (failed) => failed >= 1,
      { what: 'a delivery given up', timeoutMs: 15_000 },
    )

    const { text, parsed } = await families()
    expect(parsed.map((f) => f.name)).toEqual(expect.arrayContaining(FAMILIES))
    expect(value(parsed, 'wa_sessions', { status: 'connected' })).toBe(2)
    expect(value(parsed, 'wa_sessions', { status: 'logged_out' })).toBe(0)
    expect(value(parsed, 'wa_session_status_changes_total', { from: 'pending', to: 'connected' })).toBe(2)
    expect(value(parsed, 'wa_messages_sent_total', { type: 'text', outcome: 'handed_over' })).toBe(sentBefore + 1)
    expect(value(parsed, 'wa_message_statuses_total', { status: 'delivered' })).toBe(1)
    expect(value(parsed, 'wa_message_server_ack_seconds')).toBe(1)
    expect(value(parsed, 'wa_messages_received_total', { type: 'text' })).toBe(1)
    expect(value(parsed, 'wa_contact_checks_total', { outcome: 'exists' })).toBe(1)
    expect(value(parsed, 'wa_contact_checks_total', { outcome: 'not_exists' })).toBe(1)
    expect(value(parsed, 'wa_quota_refusals_total', { quota: 'contact_checks' })).toBe(1)
    expect(value(parsed, 'wa_webhook_deliveries_total', { outcome: 'delivered' })).toBeGreaterThanOrEqual(3)
    expect(value(parsed, 'wa_webhook_deliveries_total', { outcome: 'retrying' })).toBeGreaterThanOrEqual(1)
    expect(value(parsed, 'wa_webhook_delivery_latency_seconds')).toBeGreaterThanOrEqual(3)
    expect(value(parsed, 'wa_webhook_outbox_pending')).toBeGreaterThanOrEqual(0)
    // The run wrote (sessions, keys, records) and the checkpointer ran every 200 ms beside it.
    expect(value(parsed, 'wa_sqlite_wal_pages')).toBeGreaterThan(0)
    expect(value(parsed, 'wa_sqlite_checkpoint_seconds_total')).toBeGreaterThan(0)
    // Route patterns, never paths: the 404's id is not in the text.
    expect(
      value(parsed, 'http_requests_total', { method: 'PUT', route: '/v1/session/update/:id', status: '404' }),
    ).toBe(1)
    expect(value(parsed, 'http_requests_total', { method: 'POST', route: '/v1/contact/check', status: '429' })).toBe(1)
    // The parser keeps one sample of a labelled histogram; its count line is read from the text.
    expect(text).toContain(
      'http_request_duration_seconds_count{method="POST",route="/v1/message/text",status="200"} 1\n',
    )
    expect(value(parsed, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000)

    // Nothing that identifies a session, a person, a message or a secret, anywhere in the text.
    for (const secret of [
      ACCOUNT,
      BROKEN_ACCOUNT,
      CONTACT,
      OTHER_CONTACT,
      '15559990000',
      sessionId,
      brokenId,
      send.body.messageId,
      SENT_TEXT,
      INBOUND_TEXT,
      'ses_nope_1234',
      t.key,
      TOKEN,
      webhookSecret,
      'metered',
    ]) {
      expect(text.includes(secret), secret).toBe(false)
    }
  }, 60_000)

  it('counts the scrapes themselves, so a counter moves between two scrapes', async () => {
    expect((await scrape()).type).toMatch(/^text\/plain; version=0\.0\.4/)
    const first = value((await families()).parsed, 'http_requests_total', {
      method: 'GET',
      route: '/metrics',
      status: '200',
    })
    const second = value((await families()).parsed, 'http_requests_total', {
      method: 'GET',
      route: '/metrics',
      status: '200',
    })
    expect(second).toBe(first + 1)
  })
})

describe('/metrics switched off, and gateways side by side', () => {
  it('is 404 when METRICS_TOKEN is unset, whatever the credential', async () => {
    const t = await startTestGateway()
    try {
      const attempts: Record<string, string>[] = [
        {},
        { authorization: `Bearer ${TOKEN}` },
        { authorization: `Bearer ${t.key}` },
      ]
      for (const headers of attempts) {
        const response = await t.request('/metrics', { headers })
        expect(response.status).toBe(404)
      }
      const document = (await (await t.request('/openapi.json')).json()) as { paths: Record<string, unknown> }
      expect(Object.keys(document.paths)).not.toContain('/metrics')
    } finally {
      await t.close()
    }
  })

  it('keeps one registry per gateway: two in one process neither clash nor share counts', async () => {
    const a = await startTestGateway({ config: { metricsToken: TOKEN } })
    const b = await startTestGateway({ config: { metricsToken: TOKEN } })
    try {
      const auth = { headers: { authorization: `Bearer ${TOKEN}` } }
      for (let i = 0; i < 3; i++) await a.request('/v1/session/all', { headers: { authorization: `Bearer ${a.key}` } })
      const count = async (gateway: typeof a) => {
        const parsed = parsePrometheusTextFormat(await (await gateway.request('/metrics', auth)).text()) as Family[]
        const family = parsed.find((f) => f.name === 'http_requests_total')
        return Number(family?.metrics.find((m) => m.labels?.route === '/v1/session/all')?.value ?? 0)
      }
      expect([await count(a), await count(b)]).toEqual([3, 0])
      const document = (await (await a.request('/openapi.json')).json()) as {
        paths: Record<string, unknown>
        components: { securitySchemes: Record<string, unknown> }
      }
      expect(Object.keys(document.paths)).toContain('/metrics')
      expect(document.components.securitySchemes.metricsBearer).toBeDefined()
    } finally {
      await a.close()
      await b.close()
    }
  })
})
