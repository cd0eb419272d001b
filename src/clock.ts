/** Time as a dependency, so tests can move to tomorrow without waiting for it. */
export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

/** ISO 8601 UTC with milliseconds, the only timestamp format on the wire. */
export const isoTimestamp = (date: Date) => date.toISOString()
