/**
 * Which sessions (since several webhooks: which streams, keyed by streamKey; the names below
 * say session for what is one stream) the dispatcher's pump looks at, and when: those that may have pending
 * deliveries (woken by writers, found by rescans), minus those with a POST under way (each
 * session's deliveries go one at a time, in order) and those whose head is not due yet.
 */
export class SessionSchedule {
  readonly #active = new Set<string>()
  readonly #busy = new Set<string>()
  /** Sessions whose head is not due before this time (ms): passed by without a query until then or a wake. */
  readonly #notBefore = new Map<string, number>()

  get size(): number {
    return this.#active.size
  }

  /** The sessions to consider, in the order they became active. */
  sessions(): Iterable<string> {
    return this.#active
  }

  /** Something new for the session: consider it now, whatever it waited for. */
  wake(sessionId: string): void {
    this.#active.add(sessionId)
    this.#notBefore.delete(sessionId)
  }

  /** A rescan found pending deliveries; a wait already known stands. */
  add(sessionId: string): void {
    this.#active.add(sessionId)
  }

  /** Why the session is passed by now: a POST under way, or the time its head comes due. */
  waiting(sessionId: string, now: number): 'busy' | number | undefined {
    if (this.#busy.has(sessionId)) return 'busy'
    const until = this.#notBefore.get(sessionId)
    return until !== undefined && until > now ? until : undefined
  }

  defer(sessionId: string, until: number): void {
    this.#notBefore.set(sessionId, until)
  }

  /** Nothing pending: dropped until a writer wakes it again. */
  idle(sessionId: string): void {
    this.#active.delete(sessionId)
    this.#notBefore.delete(sessionId)
  }

  begin(sessionId: string): void {
    this.#busy.add(sessionId)
  }

  end(sessionId: string): void {
    this.#busy.delete(sessionId)
  }
}

/** One timer for the earliest retry that comes due; an earlier time replaces a later one. */
export class WakeTimer {
  #timer: NodeJS.Timeout | undefined
  #at = Number.POSITIVE_INFINITY

  constructor(private readonly onWake: () => void) {}

  /** Wakes at `at` (ms, on the dispatcher's clock), unless already set to wake sooner. */
  at(at: number, now: number): void {
    if (at >= this.#at && this.#timer) return
    clearTimeout(this.#timer)
    this.#at = at
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined
        this.#at = Number.POSITIVE_INFINITY
        this.onWake()
      },
      Math.max(0, at - now) + 5,
    )
    this.#timer.unref()
  }

  clear(): void {
    clearTimeout(this.#timer)
    this.#timer = undefined
    this.#at = Number.POSITIVE_INFINITY
  }
}
