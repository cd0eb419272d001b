import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { GatewayError } from '../../../../src/errors'
import { SendQueues } from '../../../../src/services/messages/send/send-queue'

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

  it('plans typing-only turns one after another: the sends past the bound are refused at once', async () => {
    const q = queues(2_500)
    const admitted: ReturnType<SendQueues['enter']>[] = []
    let refusal: GatewayError | undefined
    for (let i = 0; i < 1_001 && !refusal; i++) {
      try {
        admitted.push(q.enter('s', { gapMs: 0, presenceMs: 800 }))
      } catch (error) {
        refusal = error as GatewayError
      }
    }
    // Turns at 0, 0.8, 1.6 and 2.4 s; the fifth would begin at 3.2 s.
    expect(admitted).toHaveLength(4)
    expect(refusal?.details).toMatchObject({ reason: 'send_queue_full', waitMs: 3_200, retryAfterSeconds: 1 })
    // Each begins as the one before is handed over, its typing being the whole turn.
    const started: number[] = []
    for (const turn of admitted) {
      await turn.ready
      started.push(Date.now())
      await vi.advanceTimersByTimeAsync(800)
      turn.done(true)
    }
    expect(started.map((at) => at - started[0]!)).toEqual([0, 800, 1_600, 2_400])
  })

  it('moves the plan by a hand-over that took longer than planned, so later admissions see the real queue', async () => {
    const q = queues(2_000)
    const first = q.enter('s', { gapMs: 1_000, presenceMs: 0 })
    await first.ready
    q.enter('s', { gapMs: 1_000, presenceMs: 0 }) // planned at 1 s
    await vi.advanceTimersByTimeAsync(1_500) // WhatsApp took the first only now
    first.done(true)
    // The second now goes at 2.5 s, the third at 3.5 s: 2 s from now is still within the bound...
    q.enter('s', { gapMs: 1_000, presenceMs: 0 })
    // ...but a fourth (4.5 s, 3 s from now) is not, where the plan before the late hand-over said 1.5 s.
    expect(() => q.enter('s', { gapMs: 1_000, presenceMs: 0 })).toThrow(/queue is 3 s long/)
  })

  it('refuses every send once closed, as the gateway stops', () => {
    const q = queues()
    const reason = new GatewayError('session_not_connected', 'stopping')
    q.close(reason)
    expect(() => q.enter('s', { gapMs: 1_000, presenceMs: 0 })).toThrow(reason)
    expect(q.busy('s')).toBe(false)
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
    q.close(new GatewayError('session_not_connected', 'stopping'))
    await vi.advanceTimersByTimeAsync(0)
    expect(typing.settled).toBe('rejected')
    expect(vi.getTimerCount()).toBe(0)
  })
})
