/**
 * Lets the event loop turn in the middle of a long chain of promises.
 *
 * Baileys handles a socket's received messages one at a time behind a promise mutex, and every
 * step of one (decrypting, our synchronous SQLite writes, the receipt's socket write, whose
 * callback comes by nextTick) resolves as a microtask. A backlog of thousands of messages then
 * runs as one unbroken microtask chain: timers and I/O wait until it ends, so no webhook goes out
 * and even `/health` stalls for tens of seconds (the inbound bench saw 29–39 s).
 *
 * `breathe()` is awaited where the key store writes (once per message): when the loop has not
 * turned for `budgetMs`, it waits for the next check phase (after timers and I/O); otherwise it
 * costs a clock read.
 */
export interface LoopFairness {
  breathe(): Promise<void> | undefined
}

/** The loop's next check phase; a zero timeout where a runtime has no setImmediate. */
const nextTurn: (callback: () => void) => void = globalThis.setImmediate ?? ((callback) => setTimeout(callback, 0))

export function loopFairness(budgetMs = 20, now: () => number = () => performance.now()): LoopFairness {
  let lastTurn = now()
  let watching = false
  const onTurn = () => {
    watching = false
    lastTurn = now()
  }
  return {
    breathe() {
      // An immediate queued now runs at the loop's next check phase: until it has, the loop has not turned
      if (!watching) {
        watching = true
        nextTurn(onTurn)
      }
      if (now() - lastTurn < budgetMs) return undefined
      return new Promise((resolve) => nextTurn(resolve))
    },
  }
}
