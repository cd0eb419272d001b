/**
 * Races work against a timer: settles as the work does, or rejects with `expired()` after `ms`.
 * The timer is cleared either way; the work itself is not stopped (its caller decides what a
 * late end means: a pairing's socket is ended, a send's record waits for the hand-over).
 */
export function withDeadline<T>(work: Promise<T>, ms: number, expired: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(expired()), ms)
  })
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer))
}
