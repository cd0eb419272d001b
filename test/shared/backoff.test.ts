import { describe, expect, it } from 'vitest'
import { backoffDelay } from '../../src/shared/backoff'

describe('backoffDelay', () => {
  const policy = { baseMs: 1_000, maxMs: 60_000 }
  it('doubles from the base up to the cap', () => {
    const top = (attempt: number) => backoffDelay(attempt, policy, () => 1)
    expect([1, 2, 3, 4, 7, 8, 20].map(top)).toEqual([1_000, 2_000, 4_000, 8_000, 60_000, 60_000, 60_000])
  })
  it('jitters within the upper half of the ceiling', () => {
    expect(backoffDelay(3, policy, () => 0)).toBe(2_000)
    expect(backoffDelay(3, policy, () => 0.5)).toBe(3_000)
  })
})
