/*
 * The state of the gateway's history reading, apart from the reading itself (import.ts), so the
 * services' context can name it without an import circle.
 */

/** The gateway's history reading: which sessions have a chunk being read, and its stop switch. */
export interface HistoryImports {
  readonly reading: Set<string>
  /** The reads under way, for the stop to wait for (each ends at its next part once stopping). */
  readonly running: Set<Promise<void>>
  readonly stopping: AbortController
  /** Set by the gateway's start: chunks announced before wait for it (their sessions restore first). */
  started: boolean
}

export const createHistoryImports = (): HistoryImports => ({
  reading: new Set(),
  running: new Set(),
  stopping: new AbortController(),
  started: false,
})
