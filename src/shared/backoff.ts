export interface BackoffPolicy {
  baseMs: number
  maxMs: number
}

/**
 * Capped exponential backoff with full jitter: attempt 1 waits up to base, attempt n up to
 * base·2^(n-1), never more than max. Jitter spreads many sessions reconnecting at once.
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1))
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}
