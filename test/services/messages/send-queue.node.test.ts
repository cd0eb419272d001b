import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { GatewayError } from '../../../src/errors'
import { SendQueues } from '../../../src/services/messages/send-queue'

/**
 * The queue on its own, on a fake clock: turns, gaps, the bound, cancellation. `.node.test`:
 * vitest's fake timers (advanceTimersByTimeAsync), which the Bun run's vitest shim lacks.
 */
describe('SendQueues', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })
  const queues = (maxWaitMs = 10_000) => new SendQueues(maxWaitMs, () => Date.now())
  const stateOf = (promise: Promise<unknown>) => {
    const state = { settled: 'no' as 'no' | 'resolved' | 'rejected', error: undefined as unknown }
    promise.then(
      () => {
        state.settled = 'resolved'
      },
      (error) => {
        state.settled = 'rejected'
        state.error = error
      },
    )
    return state
  }

  it('gives turns in order, each its gap after the previous hand-over, typing in the last part of it', async () => {
    const q = queues()
    const first = q.enter('s', { gapMs: 1_000, presenceMs: 0 })
    await first.ready // nothing before it: at once
    first.done(true)
    const second = q.enter('s', { gapMs: 1_000, presenceMs: 300 })
    const third = q.enter('s', { gapMs: 1_000, presenceMs: 0 })
    const [a, b] = [stateOf(second.ready), stateOf(third.ready)]
    await vi.advanceTimersByTimeAsync(699)
    expect(a.settled).toBe('no')
    await vi.advanceTimersByTimeAsync(1) // 1,000 − 300 ms of typing
    expect([a.settled, b.settled]).toEqual(['resolved', 'no'])
    const typing = second.pause(300)
    await vi.advanceTimersByTimeAsync(300)
    await typing
    second.done(true) // handed over at 1,000 ms
    await vi.advanceTimersByTimeAsync(999)
    expect(b.settled).toBe('no')
    await vi.advanceTimersByTimeAsync(1)
    expect(b.settled).toBe('resolved')
    third.done(true)
    expect(q.busy('s')).toBe(false)
  })

  it('refuses a send whose turn is past the bound, saying when one would fit', () => {
    const q = queues(2_500)
    q.enter('s', { gapMs: 1_000, presenceMs: 0 })
    q.enter('s', { gapMs: 1_000, presenceMs: 0 })
    q.enter('s', { gapMs: 1_000, presenceMs: 0 })
    let refusal: GatewayError | undefined
    try {
      q.enter('s', { gapMs: 1_000, presenceMs: 0 })
    } catch (error) {
      refusal = error as GatewayError
    }
    expect(refusal?.code).toBe('rate_limited')
    expect(refusal?.details).toEqual({
      reason: 'send_queue_full',
      waitMs: 3_000,
      maxWaitMs: 2_500,
      retryAfterSeconds: 1,
    })
    // Another session's queue is its own.
    expect(() => q.enter('other', { gapMs: 1_000, presenceMs: 0 })).not.toThrow()
  })

  it('fails every waiting send at once when cancelled, even behind a hand-over under way, and keeps the gap', async () => {
    const q = queues()
    const busy = q.enter('s', { gapMs: 1_000, presenceMs: 0 })
    await busy.ready // its hand-over never ends in this test
    const waiting = q.enter('s', { gapMs: 1_000, presenceMs: 0 })
    const state = stateOf(waiting.ready)
    const reason = new GatewayError('session_not_connected', 'gone')
    q.cancel('s', reason)
    await vi.advanceTimersByTimeAsync(0)
    expect(state).toEqual({ settled: 'rejected', error: reason })
    expect(q.busy('s')).toBe(false)
    busy.done(true)
  })

  it('cuts typing short when cancelled', async () => {
    const q = queues()
    const turn = q.enter('s', { gapMs: 0, presenceMs: 5_000 })
    await turn.ready
    const typing = stateOf(turn.pause(5_000))
    q.cancelAll(new GatewayError('session_not_connected', 'stopping'))
    await vi.advanceTimersByTimeAsync(0)
    expect(typing.settled).toBe('rejected')
    expect(vi.getTimerCount()).toBe(0)
  })
})
