import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../../src/config'
import { errorHandler } from '../../../src/http/error-handler'
import type { AppEnv } from '../../../src/http/env'
import { rateLimit } from '../../../src/http/middleware/rate-limit'
import { silentLogger } from '../../../src/logger'

/** The middleware alone on a fresh app, behind our error handler, as v1 registers it after bearer auth. */
function appWithLimit(perMinute: number) {
  const app = new Hono<AppEnv>()
  app.onError(errorHandler(silentLogger()))
  app.get('/health', (c) => c.text('ok'))
  app.use('/v1/*', rateLimit(perMinute))
  app.get('/v1/thing', (c) => c.json({ ok: true }))
  return app
}
const as = (credential: string) => ({ headers: { authorization: `Bearer ${credential}` } })

describe('rateLimit', () => {
  it('answers 429 rate_limited with Retry-After and RateLimit-* once a credential passes its limit', async () => {
    const app = appWithLimit(3)
    for (let i = 0; i < 3; i++) {
      const ok = await app.request('/v1/thing', as('key-a'))
      expect(ok.status).toBe(200)
      // RateLimit-* on a 200 is left to the contact check's daily quota (one set, one meaning).
      expect(ok.headers.get('ratelimit-limit')).toBeNull()
    }
    const limited = await app.request('/v1/thing', as('key-a'))
    expect(limited.status).toBe(429)
    const retryAfter = Number(limited.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(limited.headers.get('ratelimit-limit')).toBe('3')
    expect(limited.headers.get('ratelimit-remaining')).toBe('0')
    expect(limited.headers.get('ratelimit-reset')).toBe(String(retryAfter))
    expect(await limited.json()).toEqual({
      error: 'rate_limited',
      message: expect.stringMatching(/3 requests per minute/),
      details: { limit: 3, windowSeconds: 60, retryAfterSeconds: retryAfter },
    })
  })

  it('counts each credential on its own', async () => {
    const app = appWithLimit(1)
    expect((await app.request('/v1/thing', as('key-a'))).status).toBe(200)
    expect((await app.request('/v1/thing', as('key-a'))).status).toBe(429)
    expect((await app.request('/v1/thing', as('key-b'))).status).toBe(200)
  })

  it('never limits the health probes, and 0 turns the limit off', async () => {
    const app = appWithLimit(1)
    for (let i = 0; i < 3; i++) expect((await app.request('/health', as('key-a'))).status).toBe(200)
    const off = appWithLimit(0)
    for (let i = 0; i < 5; i++) expect((await off.request('/v1/thing', as('key-a'))).status).toBe(200)
  })

  it('reads RATE_LIMIT_PER_MINUTE, 600 by default', () => {
    expect(loadConfig({}).rateLimitPerMinute).toBe(600)
    expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '0' }).rateLimitPerMinute).toBe(0)
    expect(() => loadConfig({ RATE_LIMIT_PER_MINUTE: '-1' })).toThrow(/RATE_LIMIT_PER_MINUTE/)
  })
})
