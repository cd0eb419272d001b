import type { Checkpointer, CheckpointStats } from '../perf/checkpointer'

/**
 * Which open database has a background checkpointer (see perf/checkpointer.ts), apart from it:
 * /metrics reads the figures on every runtime, and the Worker bundle must not pull in the
 * checkpointer's `node:worker_threads` (workerd has none).
 */
const checkpointers = new WeakMap<object, Checkpointer>()

export function attachCheckpointer(db: { $client: object }, checkpointer: Checkpointer): void {
  checkpointers.set(db.$client, checkpointer)
}

/** Its checkpointer, stopped or not (its figures stay readable after the close). */
export function checkpointerOf(db: { $client: object }): Checkpointer | undefined {
  return checkpointers.get(db.$client)
}

/** The background checkpointer's figures, when the database has one. */
export function checkpointStats(db: { $client: object }): CheckpointStats | undefined {
  return checkpointers.get(db.$client)?.stats()
}
