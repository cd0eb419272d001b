import type { MiddlewareHandler } from 'hono'
import { MemoryStore } from 'hono-rate-limiter'
import { sha256Hex } from '../../crypto'
import { GatewayError } from '../../errors'
import type { AppEnv } from '../env'

const WINDOW_MS = 60_000
/** Probes must answer whatever a client does (they are outside /v1 anyway; this keeps them safe if mounted otherwise). */
const EXEMPT_PATHS = new Set(['/health', '/ready'])

const secondsUntil = (time: Date | undefined) =>
  time ? Math.max(1, Math.ceil((time.getTime() - Date.now()) / 1000)) : WINDOW_MS / 1000

/**
 * At most `perMinute` requests per credential per minute, counted by hono-rate-limiter's
 * MemoryStore (fixed one-minute windows, idle counters dropped in bulk; in memory per gateway:
 * one process, one counter). The middleware around the store is ours: the library's own awaits
 * each of its steps and binds two functions per request, about a twentieth of a small request's
 * CPU, where counting is one synchronous call.
 *
 * Register it AFTER bearer auth, so only valid credentials get a counter (unknown tokens cannot
 * fill memory) and the key is the credential itself, hashed so no secret sits in the store.
 * `0` turns the limit off. Only the 429 carries RateLimit-*: on 200s the contact check already
 * uses RateLimit-* for its daily quota, and one set of headers cannot describe two limits.
 */
export function rateLimit(perMinute: number): MiddlewareHandler<AppEnv> {
  if (perMinute <= 0)
    return function noRateLimit(_c, next) {
      return next()
    }
  const store = new MemoryStore<AppEnv>()
  // The store reads only windowMs from the library's middleware options.
  store.init({ windowMs: WINDOW_MS } as Parameters<typeof store.init>[0])

  return function rateLimit(c, next) {
    if (EXEMPT_PATHS.has(c.req.path)) return next()
    // The credential's hash from bearerAuth (hashed once per request); the header's hash if mounted without it.
    const key = c.get('credentialHash') ?? sha256Hex(c.req.header('authorization') ?? '')
    const { totalHits, resetTime } = store.increment(key)
    if (totalHits <= perMinute) return next()
    const retryAfterSeconds = secondsUntil(resetTime)
    throw new GatewayError(
      'rate_limited',
      `Too many requests: ${perMinute} requests per minute per credential; retry in ${retryAfterSeconds} s`,
      { limit: perMinute, windowSeconds: WINDOW_MS / 1000, retryAfterSeconds },
      {
        'Retry-After': String(retryAfterSeconds),
        'RateLimit-Limit': String(perMinute),
        'RateLimit-Remaining': '0',
        'RateLimit-Reset': String(retryAfterSeconds),
      },
    )
  }
}
