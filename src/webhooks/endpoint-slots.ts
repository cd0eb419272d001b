/** The endpoint a URL posts to: its origin (scheme, host and port). */
export function endpointOf(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return url
  }
}

/**
 * POSTs in flight per endpoint, held to WEBHOOK_ENDPOINT_CONCURRENCY, and the endpoint each
 * session last posted to: a session whose endpoint is full is skipped without a query (a
 * thousand sessions posting to one full URL cost 40% of the gateway's CPU while restoring when
 * each was queried). A changed URL is learnt when the old endpoint frees a slot.
 */
export class EndpointSlots {
  readonly #inFlight = new Map<string, number>()
  readonly #ofSession = new Map<string, string>()

  constructor(readonly limit: number) {}

  isFull(endpoint: string): boolean {
    return (this.#inFlight.get(endpoint) ?? 0) >= this.limit
  }

  /** Whether the session's endpoint, as last seen, is full. */
  isFullFor(sessionId: string): boolean {
    const known = this.#ofSession.get(sessionId)
    return known !== undefined && this.isFull(known)
  }

  remember(sessionId: string, endpoint: string): void {
    this.#ofSession.set(sessionId, endpoint)
  }

  forget(sessionId: string): void {
    this.#ofSession.delete(sessionId)
  }

  take(endpoint: string): void {
    this.#inFlight.set(endpoint, (this.#inFlight.get(endpoint) ?? 0) + 1)
  }

  release(endpoint: string): void {
    const left = (this.#inFlight.get(endpoint) ?? 1) - 1
    if (left > 0) this.#inFlight.set(endpoint, left)
    else this.#inFlight.delete(endpoint)
  }
}
