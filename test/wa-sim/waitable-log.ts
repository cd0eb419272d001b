// An append-only list that can be awaited: waiting for an entry that already arrived resolves at
// once, so tests never race against the simulator.
export class WaitableLog<T> {
  private readonly entries: T[] = []
  private waiters: { predicate: (entry: T) => boolean; resolve: (entry: T) => void }[] = []

  push(entry: T): void {
    this.entries.push(entry)
    const pending = this.waiters
    this.waiters = []
    for (const waiter of pending) {
      if (waiter.predicate(entry)) waiter.resolve(entry)
      else this.waiters.push(waiter)
    }
  }

  list(): T[] {
    return [...this.entries]
  }

  /** Resolves with the first entry (past or future) that matches; rejects after `timeoutMs`. */
  waitFor(predicate: (entry: T) => boolean = () => true, timeoutMs = 10_000, what = 'entry'): Promise<T> {
    const existing = this.entries.find(predicate)
    if (existing !== undefined) return Promise.resolve(existing)
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter)
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`))
      }, timeoutMs)
      const waiter = {
        predicate,
        resolve: (entry: T) => {
          clearTimeout(timer)
          resolve(entry)
        },
      }
      this.waiters.push(waiter)
    })
  }
}
