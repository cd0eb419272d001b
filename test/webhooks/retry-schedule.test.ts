import { describe, expect, it } from 'vitest'
import { nextAttemptAt, retryDelay } from '../../src/webhooks/retry-schedule'

describe('retryDelay', () => {
  it('doubles from the base up to the cap, jittered within the upper half', () => {
    const top = (attempts: number) => retryDelay(attempts, 5_000, 3_600_000, () => 1)
    expect([1, 2, 3, 4, 10, 11, 50].map(top)).toEqual([5_000, 10_000, 20_000, 40_000, 2_560_000, 3_600_000, 3_600_000])
    expect(retryDelay(3, 5_000, 3_600_000, () => 0)).toBe(10_000)
    expect(retryDelay(3, 5_000, 3_600_000, () => 0.5)).toBe(15_000)
  })

  it('stays finite for absurd attempt counts', () => {
    expect(retryDelay(10_000, 5_000, 60_000, () => 1)).toBe(60_000)
  })
})

describe('nextAttemptAt', () => {
  const limits = { retryBaseMs: 1_000, retryMaxMs: 60_000 }
  const now = new Date('2026-11-24T00:00:00.000Z')
  const at = (ms: number) => new Date(now.getTime() + ms)

  it('is after the backoff while the retry window lasts', () => {
    expect(nextAttemptAt({ attempts: 3, now, retryUntil: at(3_600_000) }, limits, () => 1)).toEqual(at(4_000))
  })

  it('never goes past the end of the window', () => {
    expect(nextAttemptAt({ attempts: 10, now, retryUntil: at(5_000) }, limits, () => 1)).toEqual(at(5_000))
  })

  it('is null once the window is over: the delivery fails for good', () => {
    expect(nextAttemptAt({ attempts: 2, now, retryUntil: now }, limits)).toBeNull()
    expect(nextAttemptAt({ attempts: 2, now, retryUntil: at(-1) }, limits)).toBeNull()
  })
})
