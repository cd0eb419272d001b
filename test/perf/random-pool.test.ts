import { describe, expect, it, vi } from 'vitest'

const drawn = vi.hoisted(() => ({ calls: 0 }))
vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof import('node:crypto')>()
  return {
    ...crypto,
    randomBytes: (size: number) => {
      drawn.calls++
      return crypto.randomBytes(size)
    },
  }
})

const { pooledRandomBytes } = await import('../../src/perf/random-pool')
const { newSessionId, newWebhookId } = await import('../../src/ids')

/** Ids take their randomness from a 4 KiB pool (bench: inbound msg/s; each draw was a trip into OpenSSL). */
describe('pooledRandomBytes', () => {
  it('draws from the system once per 4 KiB, and never hands out the same bytes twice', () => {
    const before = drawn.calls
    const slices = Array.from({ length: 1_000 }, () => Buffer.from(pooledRandomBytes(24)))
    // 24,000 bytes: six pools of 4,096 (170 slices each), not a draw per slice.
    expect(drawn.calls - before).toBeLessThanOrEqual(7)
    expect(new Set(slices.map((slice) => slice.toString('hex'))).size).toBe(1_000)
  })

  it('gives a request larger than the pool its own draw', () => {
    const big = pooledRandomBytes(10_000)
    expect(big.length).toBe(10_000)
    expect(new Set(big).size).toBeGreaterThan(200) // random, not a zeroed buffer
  })

  it('keeps ids unique and every base32 character about as likely as any other', () => {
    const before = drawn.calls
    const ids = Array.from({ length: 20_000 }, (_, i) => (i % 2 ? newSessionId() : newWebhookId()))
    expect(drawn.calls - before).toBeLessThanOrEqual(Math.ceil((20_000 * 24) / 4096))
    expect(new Set(ids).size).toBe(ids.length)
    const counts = new Map<string, number>()
    for (const id of ids) {
      expect(id).toMatch(/^(ses|whk)_[a-z2-7]{24}$/)
      for (const char of id.slice(4)) counts.set(char, (counts.get(char) ?? 0) + 1)
    }
    expect(counts.size).toBe(32)
    const mean = (ids.length * 24) / 32
    for (const count of counts.values()) expect(Math.abs(count - mean) / mean).toBeLessThan(0.05)
  })
})
