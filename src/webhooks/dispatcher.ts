import type { Clock } from '../clock'
import type { GatewayConfig } from '../config'
import type { GatewayDatabase } from '../db/database'
import type { WebhookDelivery } from '../db/schema'
import type { Logger } from '../logger'
import type { WebhookNotifier } from './outbox'
import { pruneOutbox } from './prune'
import { createQueue, retryDelay, sessionsWithPending, type Outgoing } from './queue'
import type { WebhookSender } from './sender'
import { WebhookSigner } from './signer'

export interface WebhookDispatcher extends WebhookNotifier {
  start(): void
  /** Aborts POSTs under way (they stay pending and go out again after a restart) and stops timers. */
  stop(): Promise<void>
}

export interface DispatcherDeps {
  db: GatewayDatabase
  clock: Clock
  logger: Logger
  config: Pick<GatewayConfig, 'webhooks'>
  sender: WebhookSender
}

const RESCAN_MS = 30_000
const REPORT_MS = 10_000
const PRUNE_MS = 10 * 60_000

/**
 * Delivers the outbox. Each session's deliveries go out one at a time in queue order (the
 * head must be delivered or failed before the next), so a session's receiver sees its events
 * in order; sessions proceed independently, bounded by WEBHOOK_CONCURRENCY in total and
 * WEBHOOK_ENDPOINT_CONCURRENCY per endpoint, so a slow or dead endpoint holds only its own
 * sessions. Writers wake it (`wake`); a timer wakes it for retries that come due; a rescan
 * of the database every 30 s is the safety net. All state lives in this closure.
 */
export function createWebhookDispatcher({ db, clock, logger, config, sender }: DispatcherDeps): WebhookDispatcher {
  const limits = config.webhooks
  const log = logger.child({ component: 'webhooks' })
  const signer = new WebhookSigner()
  const queue = createQueue(db)
  /** Sessions that may have pending deliveries. */
  const active = new Set<string>()
  /** Sessions with a POST under way. */
  const busy = new Set<string>()
  const perEndpoint = new Map<string, number>()
  /** Each session's endpoint as its last delivery named it, to skip it unqueried while that endpoint is full. */
  const endpointOfSession = new Map<string, string>()
  const inFlight = new Set<Promise<void>>()
  let stopAll = new AbortController()
  /** Sessions whose head is not due before this time (ms): skipped without a query until then or a wake. */
  const notBefore = new Map<string, number>()
  const counts = { delivered: 0, retried: 0, failed: 0 }
  const timers: NodeJS.Timeout[] = []
  let running = false
  let pumpQueued = false
  let wakeTimer: NodeJS.Timeout | undefined
  let wakeAt = Infinity

  const queuePump = () => {
    if (pumpQueued || !running) return
    pumpQueued = true
    setImmediate(() => {
      pumpQueued = false
      pump()
    })
  }

  function pump(): void {
    if (!running) return
    const now = clock.now()
    let earliest = Infinity
    for (const sessionId of active) {
      if (inFlight.size >= limits.concurrency) return
      if (busy.has(sessionId)) continue
      const waitUntil = notBefore.get(sessionId)
      if (waitUntil !== undefined && waitUntil > now.getTime()) {
        earliest = Math.min(earliest, waitUntil)
        continue
      }
      // Without this, a full endpoint shared by many sessions cost four queries per session per
      // pump (a thousand sessions' events to one URL took 40% of the gateway's CPU while restoring). A changed URL is
      // learnt when the old endpoint frees a slot, which pumps again.
      const known = endpointOfSession.get(sessionId)
      if (known !== undefined && (perEndpoint.get(known) ?? 0) >= limits.endpointConcurrency) continue
      const head = queue.headOf(sessionId)
      if (!head) {
        active.delete(sessionId)
        endpointOfSession.delete(sessionId)
        continue
      }
      const due = head.nextAttemptAt.getTime()
      if (due > now.getTime()) {
        notBefore.set(sessionId, due)
        earliest = Math.min(earliest, due)
        continue
      }
      const send = queue.outgoing(head, now)
      if (!send) continue // the session is gone; cascade deletes its deliveries
      const endpoint = endpointOf(send.url)
      endpointOfSession.set(sessionId, endpoint)
      if ((perEndpoint.get(endpoint) ?? 0) >= limits.endpointConcurrency) continue // woken when a slot frees
      attempt(head, send, endpoint)
    }
    if (earliest < Infinity) wakeAtTime(earliest)
  }

  function attempt(delivery: WebhookDelivery, send: Outgoing, endpoint: string): void {
    busy.add(delivery.sessionId)
    perEndpoint.set(endpoint, (perEndpoint.get(endpoint) ?? 0) + 1)
    const headers = signer.headers(send.secrets, send.eventId, clock.now(), send.body)
    const task = sender
      .post({ url: send.url, headers, body: send.body }, stopAll.signal)
      .then((result) => {
        if (!running) return // stopped mid-POST: it stays pending and goes out again
        const now = clock.now()
        if (result.delivered) {
          queue.markDelivered(delivery, result.statusCode, now)
          counts.delivered++
          return
        }
        const attempts = delivery.attempts + 1
        const retryAt = Math.min(
          now.getTime() + retryDelay(attempts, limits.retryBaseMs, limits.retryMaxMs),
          delivery.retryUntil.getTime(),
        )
        const next = now.getTime() >= delivery.retryUntil.getTime() ? null : new Date(retryAt)
        const status = queue.markAttemptFailed(delivery, result, next, now)
        if (next) notBefore.set(delivery.sessionId, next.getTime())
        if (status === 'failed') {
          counts.failed++
          log.warn(
            {
              sessionId: delivery.sessionId,
              deliveryId: delivery.id,
              eventId: send.eventId,
              type: send.type,
              attempts,
              lastError: result.error,
            },
            'webhook delivery failed for good',
          )
        } else {
          counts.retried++
          log.debug(
            {
              sessionId: delivery.sessionId,
              deliveryId: delivery.id,
              attempts,
              lastError: result.error,
              nextAttemptAt: next,
            },
            'webhook delivery will be retried',
          )
        }
      })
      .catch((error: unknown) =>
        log.error({ err: error, deliveryId: delivery.id }, 'webhook delivery bookkeeping failed'),
      )
      .finally(() => {
        inFlight.delete(task)
        busy.delete(delivery.sessionId)
        const left = (perEndpoint.get(endpoint) ?? 1) - 1
        if (left > 0) perEndpoint.set(endpoint, left)
        else perEndpoint.delete(endpoint)
        queuePump()
      })
    inFlight.add(task)
  }

  function wakeAtTime(at: number): void {
    if (at >= wakeAt && wakeTimer) return
    clearTimeout(wakeTimer)
    wakeAt = at
    wakeTimer = setTimeout(
      () => {
        wakeTimer = undefined
        wakeAt = Infinity
        pump()
      },
      Math.max(0, at - clock.now().getTime()) + 5,
    )
    wakeTimer.unref()
  }

  function rescan(): void {
    for (const sessionId of sessionsWithPending(db)) active.add(sessionId)
    pump()
  }

  function prune(): void {
    const removed = pruneOutbox(db, new Date(clock.now().getTime() - limits.retentionHours * 3_600_000))
    if (removed.deliveries || removed.events) log.info(removed, 'webhook outbox pruned')
  }

  let reported = { ...counts }
  function report(): void {
    if (
      counts.delivered === reported.delivered &&
      counts.failed === reported.failed &&
      counts.retried === reported.retried
    )
      return
    log.info(
      {
        delivered: counts.delivered - reported.delivered,
        retried: counts.retried - reported.retried,
        failed: counts.failed - reported.failed,
        sessionsWaiting: active.size,
      },
      'webhook deliveries',
    )
    reported = { ...counts }
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
      if (sessionId) {
        active.add(sessionId)
        notBefore.delete(sessionId)
      }
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
      every(REPORT_MS, report)
      log.info({ sessionsWaiting: active.size }, 'webhook dispatcher started')
    },
    async stop() {
      if (!running) return
      running = false
      stopAll.abort()
      for (const timer of timers) clearInterval(timer)
      clearTimeout(wakeTimer)
      await Promise.allSettled([...inFlight])
      sender.close()
      report()
    },
  }
}

function endpointOf(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return url
  }
}
