import type { ServiceContext } from './context'
import { pruneMessages } from './messages/retention'

/** Housekeeping runs this often; the first run is right after start. */
export const MAINTENANCE_INTERVAL_MS = 60 * 60 * 1000

/**
 * Periodic housekeeping of one gateway (retention of records and keys). Answers a stop
 * function; the timer never keeps the process alive on its own.
 */
export function startMaintenance(ctx: ServiceContext, intervalMs = MAINTENANCE_INTERVAL_MS): () => void {
  const run = () => {
    try {
      const pruned = pruneMessages(ctx)
      if (pruned.messages > 0 || pruned.idempotencyKeys > 0)
        ctx.logger.info(pruned, 'pruned old message records and idempotency keys')
    } catch (error) {
      ctx.logger.error({ err: error }, 'housekeeping failed')
    }
  }
  run()
  const timer = setInterval(run, intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
