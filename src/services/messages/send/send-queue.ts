import type { GatewayConfig } from '../../../config'
import { GatewayError } from '../../../errors'
import { planTurn } from './pacing'

/** A paced send's place in its session's queue. */
export interface SendTurn {
  /**
   * Resolves when the send may begin (its "typing…", then its hand-over); rejects with the
   * queue's cancellation (the session left `connected`, the gateway stops).
   */
  readonly ready: Promise<void>
  /** Waits `ms` (its "typing…"), cut short by that same cancellation until the turn is done. */
  pause(ms: number): Promise<void>
  /** The send is over: `handedOver` when WhatsApp took it (the next gap counts from now). Once only. */
  done(handedOver: boolean): void
}

interface Lane {
  /** When this session last handed a send over (monotonic ms). */
  lastHandoverAt: number
  /** When the last queued send is planned to be handed over, were hand-overs instant. */
  plannedUntil: number
  /** How far late hand-overs have moved the plan so far (ms): a queued turn's plan moves with it. */
  shiftMs: number
  queued: number
  /** Settles when the last queued send is done: the next one waits for it. */
  tail: Promise<void>
  /** How to fail each send of this lane not done yet (waiting, or showing "typing…"). */
  cancels: Set<(reason: GatewayError) => void>
}

const newLane = (lastHandoverAt = Number.NEGATIVE_INFINITY): Lane => ({
  lastHandoverAt,
  plannedUntil: lastHandoverAt,
  shiftMs: 0,
  queued: 0,
  tail: Promise.resolve(),
  cancels: new Set(),
})

/** `work`, or the cancellation if it comes first; a timer is cleared either way. */
async function unlessCancelled(cancelled: Promise<never>, work: Promise<void>, timer?: NodeJS.Timeout): Promise<void> {
  try {
    await Promise.race([work, cancelled])
  } finally {
    clearTimeout(timer)
  }
}

function delay(ms: number, cancelled: Promise<never>): Promise<void> {
  if (ms <= 0) return unlessCancelled(cancelled, Promise.resolve())
  let timer: NodeJS.Timeout | undefined
  const slept = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms)
  })
  return unlessCancelled(cancelled, slept, timer)
}

/** The wait a paced send may not exceed, said as the 429 it is. */
function queueFull(waitMs: number, maxWaitMs: number): GatewayError {
  const retryAfterSeconds = Math.max(1, Math.ceil((waitMs - maxWaitMs) / 1000))
  return new GatewayError(
    'rate_limited',
    `This session's sends are paced and its queue is ${Math.ceil(waitMs / 1000)} s long, more than SEND_QUEUE_MAX_WAIT_MS (${maxWaitMs} ms); nothing was sent or recorded: retry in ${retryAfterSeconds} s`,
    { reason: 'send_queue_full', waitMs: Math.ceil(waitMs), maxWaitMs, retryAfterSeconds },
  )
}

/**
 * One queue per session, in memory: paced sends wait their turn in the order they entered,
 * each handed over at least its gap after the one before (counted from when WhatsApp took
 * that one), its "typing…" shown during the last part of that wait or, longer than the gap,
 * making the turn (planTurn). A send is refused at once when its turn would come later than
 * `maxWaitMs` from now; a hand-over later than planned moves the plan of those behind it.
 * Nothing here is stored: a waiting send has no record yet, so a stop or a crash leaves nothing
 * of it (the service's contract). A lane stays per session once it was paced (a few numbers),
 * so a gap outlives an idle queue.
 */
export class SendQueues {
  readonly #lanes = new Map<string, Lane>()
  /** Set as the gateway stops: every send is refused with it. */
  #closed: GatewayError | undefined

  constructor(
    private readonly maxWaitMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Whether sends of this session are waiting or under way: an unpaced send then queues too, keeping order. */
  busy(sessionId: string): boolean {
    return (this.#lanes.get(sessionId)?.queued ?? 0) > 0
  }

  /**
   * Takes a place for one send: `gapMs` after the previous hand-over, `presenceMs` of "typing…"
   * ending then. Throws the 429 when its turn is more than `maxWaitMs` away; once closed, the
   * closing reason.
   */
  enter(sessionId: string, { gapMs, presenceMs }: { gapMs: number; presenceMs: number }): SendTurn {
    if (this.#closed) throw this.#closed
    let lane = this.#lanes.get(sessionId)
    if (!lane) {
      lane = newLane()
      this.#lanes.set(sessionId, lane)
    }
    const now = this.now()
    const plan = planTurn(now, lane.queued > 0 ? lane.plannedUntil : lane.lastHandoverAt, { gapMs, presenceMs })
    if (plan.startsAt - now > this.maxWaitMs) throw queueFull(plan.startsAt - now, this.maxWaitMs)
    lane.plannedUntil = plan.handoverAt
    lane.queued++

    const current = lane
    const shiftAtEntry = lane.shiftMs
    const previous = current.tail
    let release!: () => void
    current.tail = new Promise<void>((resolve) => {
      release = resolve
    })
    let cancel!: (reason: GatewayError) => void
    const cancelled = new Promise<never>((_, reject) => {
      cancel = reject
    })
    cancelled.catch(() => {}) // observed through ready/pause; never unhandled
    current.cancels.add(cancel)
    const ready = (async () => {
      await unlessCancelled(cancelled, previous)
      await delay(current.lastHandoverAt + gapMs - presenceMs - this.now(), cancelled)
    })()
    let ended = false
    return {
      ready,
      pause: (ms) => delay(ms, cancelled),
      done: (handedOver) => {
        if (ended) return
        ended = true
        const at = this.now()
        if (handedOver) current.lastHandoverAt = at
        // Later than planned (WhatsApp took its time): every turn behind this one comes that much later.
        const late = at - (plan.handoverAt + current.shiftMs - shiftAtEntry)
        if (late > 0) {
          current.plannedUntil += late
          current.shiftMs += late
        }
        current.queued--
        current.cancels.delete(cancel)
        release()
      },
    }
  }

  /** Every send waiting in this session's queue fails with `reason`; the gap since the last hand-over stays. */
  cancel(sessionId: string, reason: GatewayError): void {
    const lane = this.#lanes.get(sessionId)
    if (!lane || lane.queued === 0) return
    this.#lanes.set(sessionId, newLane(lane.lastHandoverAt))
    for (const fail of lane.cancels) fail(reason)
  }

  /** The gateway stops: every waiting send fails with `reason`, and so does every paced send after. */
  close(reason: GatewayError): void {
    this.#closed = reason
    for (const sessionId of [...this.#lanes.keys()]) this.cancel(sessionId, reason)
  }
}

/** One gateway's send queues: a turn more than SEND_QUEUE_MAX_WAIT_MS away is refused. */
export const createSendQueues = (config: Pick<GatewayConfig, 'sendQueueMaxWaitMs'>): SendQueues =>
  new SendQueues(config.sendQueueMaxWaitMs)
