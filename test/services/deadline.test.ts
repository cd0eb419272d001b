import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { withDeadline } from '../../src/services/deadline'

class Expired extends Error {}

describe('withDeadline', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('settles as the work does, and leaves no timer behind', async () => {
    await expect(withDeadline(Promise.resolve('done'), 1000, () => new Expired())).resolves.toBe('done')
    await expect(withDeadline(Promise.reject(new Error('refused')), 1000, () => new Expired())).rejects.toThrow(
      'refused',
    )
    expect(vi.getTimerCount()).toBe(0)
  })

  it('rejects with the caller’s error once the time is up, not before', async () => {
    let settled = false
    const raced = withDeadline(new Promise<never>(() => {}), 1000, () => new Expired('late')).finally(() => {
      settled = true
    })
    const expectation = expect(raced).rejects.toBeInstanceOf(Expired)
    await vi.advanceTimersByTimeAsync(999)
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await expectation
    expect(vi.getTimerCount()).toBe(0)
  })
})
