/** Exponential backoff with jitter: base·2ⁿ⁻¹ capped at max, then a random point in its upper half. */
export function retryDelay(attempts: number, baseMs: number, maxMs: number, random = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempts - 1, 40))
  return Math.round(ceiling / 2 + random() * (ceiling / 2))
}

/**
 * When a delivery that just failed its `attempts`-th attempt goes out again: after the backoff,
 * but never past the end of its retry window; `null` once that window is over (it is failed).
 */
export function nextAttemptAt(
  { attempts, now, retryUntil }: { attempts: number; now: Date; retryUntil: Date },
  { retryBaseMs, retryMaxMs }: { retryBaseMs: number; retryMaxMs: number },
  random = Math.random,
): Date | null {
  if (now.getTime() >= retryUntil.getTime()) return null
  return new Date(Math.min(now.getTime() + retryDelay(attempts, retryBaseMs, retryMaxMs, random), retryUntil.getTime()))
}
