import { count, eq } from 'drizzle-orm'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import { checkpointStats } from '../db/checkpoint-stats'
import { shareHandleWalks } from '../perf/handle-gauges'
import type { GatewayDatabase } from '../db/database'
import { sessionStatuses } from '../shared/session-statuses'
import { sessions, webhookDeliveries } from '../db/schema'
import type { EventBus } from '../events/bus'
import type { GatewayMetrics } from './port'

/** Sends whose server ack is awaited, at most (the oldest are forgotten first): memory stays bounded. */
const MAX_AWAITED_ACKS = 50_000

/** Distinct values a free-text-ish label (a reason) may take before the rest count as `other`. */
const MAX_REASONS = 64
const REASON = /^[a-z0-9_]{1,48}$/

/**
 * Reasons are machine words from closed lists (close-policy.ts, the ack listener), but one comes
 * from WhatsApp (`error_<code>`): a label keeps the first MAX_REASONS well-formed values it sees
 * and says `other` for the rest, so no answer from outside can grow the series without bound.
 */
function reasonLabel(seen: Set<string>): (reason: string | null) => string {
  return (reason) => {
    if (!reason) return ''
    if (seen.has(reason)) return reason
    if (!REASON.test(reason) || seen.size >= MAX_REASONS) return 'other'
    seen.add(reason)
    return reason
  }
}

export interface PrometheusMetrics {
  metrics: GatewayMetrics
  /** The exposition text of this gateway's registry, gauges read from SQLite now. */
  scrape(): Promise<{ contentType: string; body: string }>
  /** Stops listening to the event bus. */
  close(): void
}

/**
 * One registry per gateway (never prom-client's global one): two gateways in one process keep
 * their own figures. Counters are fed through the GatewayMetrics port and the event bus;
 * session and outbox gauges are read from SQLite at scrape time, so they are never stale and
 * cost nothing between scrapes. Process figures (RSS, CPU, event-loop lag, heap, GC) are
 * prom-client's defaults, on this registry.
 */
export function createPrometheusMetrics({ db, events }: { db: GatewayDatabase; events: EventBus }): PrometheusMetrics {
  const registry = new Registry()
  const registers = [registry]
  collectDefaultMetrics({ register: registry })
  shareHandleWalks(registry)

  new Gauge({
    name: 'wa_sessions',
    help: 'Sessions by status, as stored',
    labelNames: ['status'],
    registers,
    collect() {
      const counts = new Map<string, number>(sessionStatuses.map((status) => [status, 0]))
      const rows = db.select({ status: sessions.status, n: count() }).from(sessions).groupBy(sessions.status).all()
      for (const row of rows) counts.set(row.status, row.n)
      for (const [status, n] of counts) this.set({ status }, n)
    },
  })
  const statusChanges = new Counter({
    name: 'wa_session_status_changes_total',
    help: 'Session status changes by previous status, new status and statusReason: connects (pending→connected), reconnects (connecting→connected), drops (→connecting), logouts (→logged_out)',
    labelNames: ['from', 'to', 'reason'],
    registers,
  })
  const sent = new Counter({
    name: 'wa_messages_sent_total',
    help: 'Sends by endpoint type and outcome: handed_over, or the error code answered',
    labelNames: ['type', 'outcome'],
    registers,
  })
  const statuses = new Counter({
    name: 'wa_message_statuses_total',
    help: 'Outbound messages reaching a status (sent, delivered, read, played, failed) with its reason',
    labelNames: ['status', 'reason'],
    registers,
  })
  const ackLatency = new Histogram({
    name: 'wa_message_server_ack_seconds',
    help: 'From the hand-over of a send to WhatsApp to its server ack (or first receipt)',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers,
  })
  const received = new Counter({
    name: 'wa_messages_received_total',
    help: 'Inbound messages stored, by type',
    labelNames: ['type'],
    registers,
  })
  const historyChunks = new Counter({
    name: 'wa_history_chunks_total',
    help: 'History chunks read at linking, by how the read ended',
    labelNames: ['state'],
    registers,
  })
  const historyMessages = new Counter({
    name: 'wa_history_messages_total',
    help: 'Messages imported from phones’ history',
    registers,
  })
  const deliveries = new Counter({
    name: 'wa_webhook_deliveries_total',
    help: 'Webhook POSTs by outcome: delivered, retrying (an attempt failed), failed (given up)',
    labelNames: ['outcome'],
    registers,
  })
  const deliveryLatency = new Histogram({
    name: 'wa_webhook_delivery_latency_seconds',
    help: 'From an event entering the outbox to its delivery (retries included)',
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 30, 60, 300, 3600, 86_400],
    registers,
  })
  new Gauge({
    name: 'wa_webhook_outbox_pending',
    help: 'Webhook deliveries waiting to be delivered or retried',
    registers,
    collect() {
      const row = db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.status, 'pending')).get()
      this.set(row?.n ?? 0)
    },
  })
  if (checkpointStats(db)) {
    let counted = 0
    new Counter({
      name: 'wa_sqlite_checkpoint_seconds_total',
      help: 'Time the background checkpointer spent copying the WAL into the database file (off the event loop)',
      registers,
      collect() {
        const seconds = checkpointStats(db)?.seconds ?? counted
        this.inc(seconds - counted)
        counted = seconds
      },
    })
    new Gauge({
      name: 'wa_sqlite_wal_pages',
      help: 'Pages (frames) in the SQLite WAL, as the background checkpointer last saw them (every 100 ms): what a crash would leave to replay',
      registers,
      collect() {
        this.set(checkpointStats(db)?.walPages ?? 0)
      },
    })
  }
  const checks = new Counter({
    name: 'wa_contact_checks_total',
    help: 'Numbers checked, by outcome: exists, not_exists, failed (WhatsApp did not answer; refunded)',
    labelNames: ['outcome'],
    registers,
  })
  const refusals = new Counter({
    name: 'wa_quota_refusals_total',
    help: 'Requests refused by a limit: contact_checks (the daily quota), send_queue (a paced session’s queue is full)',
    labelNames: ['quota'],
    registers,
  })
  const httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'API requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    registers,
  })
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'API request duration by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  })

  // Every counter family shows from the first scrape, at 0, with its usual labels.
  for (const outcome of ['delivered', 'retrying', 'failed']) deliveries.inc({ outcome }, 0)
  for (const outcome of ['exists', 'not_exists', 'failed']) checks.inc({ outcome }, 0)
  for (const quota of ['contact_checks', 'send_queue']) refusals.inc({ quota }, 0)

  const handedOverAt = new Map<string, number>()
  const sessionReason = reasonLabel(new Set())
  const messageReason = reasonLabel(new Set())
  const stopListening = events.on('session.status', (change) =>
    statusChanges.inc({ from: change.previousStatus, to: change.status, reason: sessionReason(change.statusReason) }),
  )

  const metrics: GatewayMetrics = {
    enabled: true,
    httpRequest(method, route, status, seconds) {
      const labels = { method, route, status: String(status) }
      httpRequests.inc(labels)
      httpDuration.observe(labels, seconds)
    },
    messageSend: (type, outcome) => sent.inc({ type, outcome }),
    handedOver(sessionId, messageId) {
      if (handedOverAt.size >= MAX_AWAITED_ACKS) handedOverAt.delete(handedOverAt.keys().next().value!)
      handedOverAt.set(`${sessionId}\u0000${messageId}`, performance.now())
    },
    messageStatus(sessionId, messageId, from, to, reason) {
      statuses.inc({ status: to, reason: messageReason(reason) })
      if (from !== 'pending') return
      const key = `${sessionId}\u0000${messageId}`
      const at = handedOverAt.get(key)
      if (at === undefined) return
      handedOverAt.delete(key)
      if (to !== 'failed') ackLatency.observe((performance.now() - at) / 1000)
    },
    messageReceived: (type) => received.inc({ type }),
    historyChunk: (state, messages) => {
      historyChunks.inc({ state })
      historyMessages.inc(messages)
    },
    webhookDelivery(outcome, secondsSinceEvent) {
      deliveries.inc({ outcome })
      if (outcome === 'delivered') deliveryLatency.observe(Math.max(0, secondsSinceEvent))
    },
    contactChecks: (outcome, numbers) => checks.inc({ outcome }, numbers),
    quotaRefused: (quota) => refusals.inc({ quota }),
  }

  return {
    metrics,
    scrape: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
    close: stopListening,
  }
}
