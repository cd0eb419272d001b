import type { GatewayError } from '../errors'

/** A limit as the RateLimit-* headers (IETF draft) describe it. */
export interface LimitState {
  limit: number
  remaining: number
  resetsAt: Date
}

const secondsUntil = (when: Date, now: Date) => Math.max(0, Math.ceil((when.getTime() - now.getTime()) / 1000))

/** RateLimit-Limit / -Remaining / -Reset for a limit, e.g. the contact-check daily quota. */
export function rateLimitHeaders(state: LimitState, now: Date): Record<string, string> {
  return {
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(state.remaining),
    'RateLimit-Reset': String(secondsUntil(state.resetsAt, now)),
  }
}

/**
 * The headers an error answer carries: its own (set by HTTP middleware such as the rate
 * limiter), and for a daily quota refused by a service, RateLimit-* and Retry-After derived
 * from the figures in its details (a full send queue: Retry-After) — services report numbers, the
 * HTTP layer speaks headers.
 */
export function errorHeaders(error: GatewayError, now: Date): Record<string, string> {
  if (error.code === 'rate_limited') {
    // A paced session's full send queue says when a send would fit again.
    const { retryAfterSeconds } = error.details as { retryAfterSeconds?: unknown }
    return typeof retryAfterSeconds === 'number'
      ? { 'Retry-After': String(retryAfterSeconds), ...error.headers }
      : error.headers
  }
  if (error.code !== 'daily_limit_exceeded') return error.headers
  const { limit, remaining, resetsAt } = error.details as { limit?: number; remaining?: number; resetsAt?: string }
  if (limit === undefined || remaining === undefined || !resetsAt) return error.headers
  const state = { limit, remaining, resetsAt: new Date(resetsAt) }
  return { ...rateLimitHeaders(state, now), 'Retry-After': String(secondsUntil(state.resetsAt, now)), ...error.headers }
}
