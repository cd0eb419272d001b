import { setTimeout as sleep } from 'node:timers/promises'

/**
 * The one wait of the tests: calls `read` until `done` holds for its answer, and answers it; past
 * `timeoutMs` it throws with `what` and the last answer seen (not a bare timeout), so a failure
 * says what was awaited and what was there instead.
 */
export async function pollUntil<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  {
    timeoutMs = 10_000,
    intervalMs = 25,
    what = 'the condition',
  }: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() >= deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}; last seen ${JSON.stringify(value)?.slice(0, 500)}`,
      )
    await sleep(intervalMs)
  }
}
