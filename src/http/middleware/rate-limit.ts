import type { Context, MiddlewareHandler } from 'hono'
import { rateLimiter, type RateLimitInfo } from 'hono-rate-limiter'
import { sha256Hex } from '../../crypto'
import { GatewayError } from '../../errors'
import type { AppEnv } from '../env'

/** hono-rate-limiter leaves its count in the context under `rateLimit`. */
type LimiterEnv = { Variables: AppEnv['Variables'] & { rateLimit: RateLimitInfo } }

const WINDOW_MS = 60_000
/** Probes must answer whatever a client does (they are outside /v1 anyway; this keeps them safe if mounted otherwise). */
const EXEMPT_PATHS = new Set(['/health', '/ready'])

const secondsUntil = (time: Date | undefined) =>
  time ? Math.max(1, Math.ceil((time.getTime() - Date.now()) / 1000)) : WINDOW_MS / 1000

/**
 * At most `perMinute` requests per credential per minute (hono-rate-limiter, in memory per
 * gateway: one process, one counter). Register it AFTER bearer auth, so only valid credentials
 * get a counter (unknown tokens cannot fill memory) and the key is the credential itself,
 * hashed so no secret sits in the store. `0` turns the limit off.
 */
export function rateLimit(perMinute: number): MiddlewareHandler<AppEnv> {
  if (perMinute <= 0) return async function noRateLimit(_c, next) { await next() }
  const limiter = rateLimiter<LimiterEnv>({
    windowMs: WINDOW_MS,
    limit: perMinute,
    // Only the 429 carries RateLimit-* (set below): on 200s the contact check already uses
    // RateLimit-* for its daily quota, and one set of headers cannot describe two limits.
    standardHeaders: false,
    // The credential's hash from bearerAuth (hashed once per request); the header's hash if mounted without it.
    keyGenerator: (c) => c.get('credentialHash') ?? sha256Hex(c.req.header('authorization') ?? ''),
    skip: (c) => EXEMPT_PATHS.has(c.req.path),
    handler: (c) => {
      const retryAfterSeconds = secondsUntil(c.get('rateLimit').resetTime)
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
    },
  })
  return async function rateLimit(c, next) {
    return limiter(c as unknown as Context<LimiterEnv>, next)
  }
}
