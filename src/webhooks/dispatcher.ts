import type { Clock } from '../clock'
import type { GatewayConfig } from '../config'
import type { GatewayDatabase } from '../db/database'
import { createStatementCache, type StatementCache } from '../perf/prepared'
import { commitWrites, groupWrite } from '../perf/group-commit'
import type { WebhookDelivery } from '../db/schema'
import type { Logger } from '../logger'
import { noMetrics, type GatewayMetrics } from '../metrics/port'
import type { WebhookNotifier } from './outbox'
import { pruneOutbox } from './prune'
import { EndpointSlots, endpointOf } from './endpoint-slots'
import { abandonPrimaryDeliveries, createQueue, streamsWithPending, type Outgoing } from './queue'
import { nextAttemptAt } from './retry-schedule'
import { SessionSchedule, WakeTimer } from './session-schedule'
import type { EventSink, WebhookResponse, WebhookSender } from './sender'
import { streamKey, streamOf } from './streams'
import { WebhookSigner } from './signer'

export interface WebhookDispatcher extends WebhookNotifier {
  start(): void
  /** Aborts POSTs under way (they stay pending and go out again after a restart) and stops timers. */
  stop(): Promise<void>
}

export interface DispatcherDeps {
  db: GatewayDatabase
  /** The gateway's prepared statements; a cache of the dispatcher's own when not given. */
  statements?: StatementCache
  clock: Clock
  logger: Logger
  config: Pick<GatewayConfig, 'webhooks'>
  sender: WebhookSender
  /** Where each POST's outcome is reported for /metrics. */
  metrics?: Pick<GatewayMetrics, 'webhookDelivery'>
  /** Integrations' streams (webhook_subscriptions.kind other than 'webhook'), by kind. */
  sinks?: Partial<Record<Exclude<Outgoing['kind'], 'webhook'>, EventSink>>
}

const RESCAN_MS = 30_000
const REPORT_MS = 10_000
const PRUNE_MS = 10 * 60_000

/**
 * Delivers the outbox. Its unit is the stream (streams.ts): one session's deliveries to one
 * webhook, its own webhookUrl or another. A stream's deliveries go out one at a time in queue
 * order (the head must be delivered or failed before the next), so each webhook sees a
 * session's events in order; streams proceed independently, bounded by WEBHOOK_CONCURRENCY in
 * total and WEBHOOK_ENDPOINT_CONCURRENCY per endpoint, so a slow or dead webhook holds only its
 * own streams. Writers wake a session (`wake`), whose pending streams the next pump looks up; a
 * timer wakes it for retries that come due; a rescan of the database every 30 s is the safety
 * net. The parts have names: SessionSchedule (which streams, when, keyed by streamKey),
 * EndpointSlots (per-endpoint concurrency), nextAttemptAt (the backoff).
 */
export function createWebhookDispatcher({
  db,
  statements = createStatementCache(db),
  clock,
  logger,
  config,
  sender,
  metrics = noMetrics,
  sinks = {},
}: DispatcherDeps): WebhookDispatcher {
  const limits = config.webhooks
  const log = logger.child({ component: 'webhooks' })
  const signer = new WebhookSigner()
  const queue = createQueue({ db, statements })
  const schedule = new SessionSchedule()
  const slots = new EndpointSlots(limits.endpointConcurrency)
  const wakeTimer = new WakeTimer(() => pump())
  /** Sessions woken by a writer since the last pump: which of their streams have something is asked then. */
  const woken = new Set<string>()
  const inFlight = new Set<Promise<void>>()
  const counts = new DeliveryCounts(log)
  const timers: NodeJS.Timeout[] = []
  let stopAll = new AbortController()
  let running = false
  let pumpQueued = false
  const queuePump = () => {
    if (pumpQueued || !running) return
    pumpQueued = true
    setImmediate(() => {
      pumpQueued = false
      pump()
    })
  }

  /** What to do with one stream now: pass it by, wait for its head to come due, or post its head. */
  function consider(key: string, now: Date): Step {
    const waiting = schedule.waiting(key, now.getTime())
    if (waiting === 'busy') return { kind: 'pass' }
    if (waiting !== undefined) return { kind: 'wait', until: waiting }
    if (slots.isFullFor(key)) return { kind: 'pass' } // woken when a slot frees
    const next = queue.headOf(streamOf(key), now)
    if (!next) {
      schedule.idle(key)
      slots.forget(key)
      return { kind: 'pass' }
    }
    const { delivery: head, send } = next
    const due = head.nextAttemptAt.getTime()
    if (due > now.getTime()) {
      schedule.defer(key, due)
      return { kind: 'wait', until: due }
    }
    if (!send) return { kind: 'pass' } // the session or webhook is gone; cascade deletes its deliveries
    if (send === 'no-webhook') {
      // Its webhookUrl was removed while a POST of this stream was under way (the removal ends
      // what was pending then): nothing to send to, so nothing is left waiting for ever.
      abandonPrimaryDeliveries(db, head.sessionId, now)
      return { kind: 'pass' }
    }
    const endpoint = endpointOf(send.url)
    slots.remember(key, endpoint)
    if (slots.isFull(endpoint)) return { kind: 'pass' }
    return { kind: 'post', delivery: head, send, endpoint }
  }

  /** Posts every stream's head that may go now, within the concurrency limits, and sets the timer for the next due one. */
  function pump(): void {
    if (!running) return
    // What it reads is committed before it is sent (perf/group-commit.ts).
    commitWrites(db)
    for (const sessionId of woken) {
      for (const webhookId of queue.streamsOf(sessionId)) schedule.wake(streamKey(sessionId, webhookId))
    }
    woken.clear()
    const now = clock.now()
    let earliest = Number.POSITIVE_INFINITY
    for (const key of schedule.sessions()) {
      if (inFlight.size >= limits.concurrency) return
      const step = consider(key, now)
      if (step.kind === 'wait') earliest = Math.min(earliest, step.until)
      else if (step.kind === 'post') attempt(step.delivery, step.send, step.endpoint)
    }
    if (earliest < Number.POSITIVE_INFINITY) wakeTimer.at(earliest, now.getTime())
  }

  function attempt(delivery: WebhookDelivery, send: Outgoing, endpoint: string): void {
    const key = streamKey(delivery.sessionId, delivery.webhookId)
    schedule.begin(key)
    slots.take(endpoint)
    const task = deliver(delivery, send)
      .then((result) => {
        if (!running) return // stopped mid-POST: it stays pending and goes out again
        const now = clock.now()
        if (result.delivered) {
          // Into the connection's group, committed with what else this turn writes: a mark
          // alone was a commit (bench: inbound msg/s). A crash before that commit sends it
          // again, as one between a 2xx and its commit always could (at least once).
          groupWrite(db, () => queue.markDelivered(delivery, result.statusCode, now))
          counts.delivered++
          metrics.webhookDelivery('delivered', (now.getTime() - delivery.createdAt.getTime()) / 1000)
          return
        }
        const attempts = delivery.attempts + 1
        const next = nextAttemptAt({ attempts, now, retryUntil: delivery.retryUntil }, limits)
        const status = queue.markAttemptFailed(delivery, result, next, now)
        if (next) schedule.defer(key, next.getTime())
        const facts = {
          sessionId: delivery.sessionId,
          webhookId: delivery.webhookId,
          deliveryId: delivery.id,
          attempts,
          lastError: result.error,
        }
        metrics.webhookDelivery(status === 'failed' ? 'failed' : 'retrying', 0)
        if (status === 'failed') {
          counts.failed++
          log.warn({ ...facts, eventId: send.eventId, type: send.type }, 'webhook delivery failed for good')
        } else {
          counts.retried++
          log.debug({ ...facts, nextAttemptAt: next }, 'webhook delivery will be retried')
        }
      })
      .catch((error: unknown) =>
        log.error({ err: error, deliveryId: delivery.id }, 'webhook delivery bookkeeping failed'),
      )
      .finally(() => {
        inFlight.delete(task)
        schedule.end(key)
        slots.release(endpoint)
        queuePump()
      })
    inFlight.add(task)
  }

  /** A signed POST, or the stream's integration sink: either answers how it went. */
  function deliver(delivery: WebhookDelivery, send: Outgoing): Promise<WebhookResponse> {
    if (send.kind === 'webhook') {
      let headers: Record<string, string>
      try {
        headers = signer.headers(send.secrets, send.eventId, clock.now(), send.body)
      } catch (error) {
        // Only a secret edited in the database by hand gets here; it fails this delivery, not the process.
        log.error({ err: error, deliveryId: delivery.id }, 'the webhook secret cannot sign')
        return Promise.resolve({ delivered: false, statusCode: null, error: 'the webhook secret cannot sign' })
      }
      return sender.post({ url: send.url, headers, body: send.body }, stopAll.signal)
    }
    const sink = sinks[send.kind]
    if (!sink || !delivery.webhookId)
      return Promise.resolve({ delivered: false, statusCode: null, error: `no ${send.kind} sink in this gateway` })
    const event = { sessionId: delivery.sessionId, webhookId: delivery.webhookId, ...send }
    return sink.deliver(event, stopAll.signal).catch((error: unknown) => {
      log.error({ err: error, deliveryId: delivery.id, kind: send.kind }, 'integration sink failed')
      return { delivered: false, statusCode: null, error: `${send.kind} sink failed` }
    })
  }

  function rescan(): void {
    for (const stream of streamsWithPending(db)) schedule.add(streamKey(stream.sessionId, stream.webhookId))
    pump()
  }

  function prune(): void {
    const removed = pruneOutbox(db, new Date(clock.now().getTime() - limits.retentionHours * 3_600_000))
    if (removed.deliveries || removed.events) log.info(removed, 'webhook outbox pruned')
  }

  const every = (ms: number, run: () => void) => {
    const timer = setInterval(() => {
      try {
        run()
      } catch (error) {
        log.error({ err: error }, 'webhook dispatcher task failed')
      }
    }, ms)
    timer.unref()
    timers.push(timer)
  }

  return {
    wake(sessionId?: string) {
      if (sessionId) woken.add(sessionId)
      queuePump()
    },
    start() {
      if (running) return
      running = true
      stopAll = new AbortController()
      prune()
      rescan()
      every(RESCAN_MS, rescan)
      every(PRUNE_MS, prune)
      every(REPORT_MS, () => counts.report(schedule.size))
      log.info({ sessionsWaiting: schedule.size }, 'webhook dispatcher started')
    },
    async stop() {
      if (!running) return
      running = false
      stopAll.abort()
      for (const timer of timers) clearInterval(timer)
      wakeTimer.clear()
      await Promise.allSettled([...inFlight])
      commitWrites(db)
      sender.close()
      counts.report(schedule.size)
    },
  }
}

type Step =
  | { kind: 'pass' }
  | { kind: 'wait'; until: number }
  | { kind: 'post'; delivery: WebhookDelivery; send: Outgoing; endpoint: string }

/** Deliveries since start, logged as the change since the last report (every 10 s, when there is one). */
class DeliveryCounts {
  delivered = 0
  retried = 0
  failed = 0
  #reported = { delivered: 0, retried: 0, failed: 0 }

  constructor(private readonly log: Logger) {}

  report(sessionsWaiting: number): void {
    const last = this.#reported
    if (this.delivered === last.delivered && this.failed === last.failed && this.retried === last.retried) return
    this.log.info(
      {
        delivered: this.delivered - last.delivered,
        retried: this.retried - last.retried,
        failed: this.failed - last.failed,
        sessionsWaiting,
      },
      'webhook deliveries',
    )
    this.#reported = { delivered: this.delivered, retried: this.retried, failed: this.failed }
  }
}
