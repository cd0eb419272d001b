import { describe, expect, it } from 'vitest'
import { loopFairness } from '../../../../src/engine/whatsapp/socket/loop-fairness'

/** Holds the thread for `ms`, as a synchronous SQLite write or a decryption does. */
const busy = (ms: number) => {
  const until = performance.now() + ms
  while (performance.now() < until) {}
}

describe('loop fairness in a long promise chain', () => {
  it('lets a timer run in the middle of a chain that never leaves the microtask queue', async () => {
    const fairness = loopFairness(20)
    let timerFiredAtStep: number | undefined
    let step = 0
    setTimeout(() => {
      timerFiredAtStep = step
    }, 0)
    // 100 steps of 3 ms: each awaits what the key store's write awaits
    for (; step < 100; step++) {
      busy(3)
      await fairness.breathe()
    }
    expect(timerFiredAtStep).toBeDefined()
    expect(timerFiredAtStep!).toBeLessThan(50)
  })

  it('without it, the same chain keeps the timer waiting to its end (what a backlog did)', async () => {
    let timerFiredAtStep: number | undefined
    let step = 0
    setTimeout(() => {
      timerFiredAtStep = step
    }, 0)
    for (; step < 30; step++) {
      busy(3)
      await Promise.resolve()
    }
    expect(timerFiredAtStep).toBeUndefined()
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(timerFiredAtStep).toBe(30)
  })

  it('costs nothing but a clock read while the loop turned within the budget', async () => {
    let now = 0
    const fairness = loopFairness(20, () => now)
    expect(fairness.breathe()).toBeUndefined()
    now = 19
    expect(fairness.breathe()).toBeUndefined()
    now = 25 // no turn since 0: the immediate it queued has not run
    const waiting = fairness.breathe()
    expect(waiting).toBeInstanceOf(Promise)
    await waiting // the loop turned at 25
    now = 40
    expect(fairness.breathe()).toBeUndefined()
  })
})
