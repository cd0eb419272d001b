/**
 * The abort signal of one outgoing request: aborted when `stop` (a long-lived signal, e.g. the
 * gateway stopping) aborts, or after `timeoutMs`; `release()` when the request is over detaches
 * it from `stop` and clears its timer.
 *
 * Not `AbortSignal.any([stop, AbortSignal.timeout(ms)])`: on Node 20 each composite stays in its
 * long-lived source's dependant set for good (nodejs/node#55351, #64476), so one per webhook
 * delivery grew the heap of a 200-session soak by about 3 MB a minute.
 */
export interface RequestSignal {
  readonly signal: AbortSignal
  /** Whether the timeout (not `stop`, not `abort()`) aborted it */
  readonly timedOut: boolean
  abort(reason?: unknown): void
  release(): void
}

export function requestSignal(stop?: AbortSignal, timeoutMs?: number): RequestSignal {
  const controller = new AbortController()
  let timedOut = false
  const onStop = () => controller.abort(stop?.reason)
  if (stop?.aborted) controller.abort(stop.reason)
  else stop?.addEventListener('abort', onStop, { once: true })
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true
          controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))
        }, timeoutMs)
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut
    },
    abort: (reason) => controller.abort(reason),
    release() {
      clearTimeout(timer)
      stop?.removeEventListener('abort', onStop)
    },
  }
}
