/** Sends under way per Idempotency-Key, so a concurrent retry waits for the first (one gateway's, in memory). */
export type InFlightSends = Map<string, Promise<string>>

export const createInFlightSends = (): InFlightSends => new Map()
