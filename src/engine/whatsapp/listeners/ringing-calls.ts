/** How long an offer is kept without hearing that it ended: WhatsApp stops ringing after about a minute. */
const RING_MS = 3 * 60_000
/** Offers kept at once; a flood of calls evicts the oldest, which have long stopped ringing. */
const MAX_CALLS = 64

/**
 * The calls ringing on one connection, by call id: what rejecting one needs (its caller's jid),
 * kept from the offer until WhatsApp says the call ended (or the ring time passed).
 */
export class RingingCalls {
  readonly #calls = new Map<string, { from: string; until: number }>()

  constructor(private readonly now: () => number = Date.now) {}

  offered(callId: string, from: string): void {
    this.#calls.delete(callId)
    this.#calls.set(callId, { from, until: this.now() + RING_MS })
    for (const id of this.#calls.keys()) {
      if (this.#calls.size <= MAX_CALLS) break
      this.#calls.delete(id)
    }
  }

  ended(callId: string): void {
    this.#calls.delete(callId)
  }

  /** The caller of a call still ringing. */
  callerOf(callId: string): string | undefined {
    const call = this.#calls.get(callId)
    if (call && call.until <= this.now()) this.#calls.delete(callId)
    return call && call.until > this.now() ? call.from : undefined
  }
}
