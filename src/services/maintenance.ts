import type { GatewayContext } from './context'
import { enforceStoreCap, pruneMediaFiles } from './media/prune'
import { failUnacknowledgedSends } from './messages/send/ack-deadline'
import { pruneMessages } from './messages/records/retention'

/** Housekeeping runs this often; the first run is right after start. */
export const MAINTENANCE_INTERVAL_MS = 60 * 60 * 1000
/** The ack deadline is checked at least this often (and twice per SEND_ACK_TIMEOUT_MS when that is shorter). */
const ACK_SWEEP_MS = 15_000

/**
 * Periodic housekeeping of one gateway: retention of records, their stored files and keys
 * (hourly), and sends past their ack deadline (every few seconds). Answers a stop function; the
 * timers never keep the process alive on their own.
 */
export function startMaintenance(ctx: GatewayContext, intervalMs = MAINTENANCE_INTERVAL_MS): () => void {
  const guarded = (what: string, task: () => void) => () => {
    try {
      task()
    } catch (error) {
      ctx.logger.error({ err: error, task: what }, 'housekeeping failed')
    }
  }
  const prune = guarded('retention', () => {
    const pruned = pruneMessages(ctx)
    if (pruned.messages > 0 || pruned.idempotencyKeys > 0)
      ctx.logger.info(pruned, 'pruned old message records and idempotency keys')
    // The files of the records just pruned (and any past the store's cap): the store is async
    void (async () => {
      const files = (await pruneMediaFiles(ctx)) + (await enforceStoreCap(ctx))
      if (files > 0) ctx.logger.info({ files }, 'pruned stored media files')
    })().catch((error: unknown) => ctx.logger.error({ err: error, task: 'media retention' }, 'housekeeping failed'))
  })
  const sweep = guarded('ack deadline', () => void failUnacknowledgedSends(ctx))
  prune()
  const timers = [
    setInterval(prune, intervalMs),
    setInterval(sweep, Math.min(ACK_SWEEP_MS, ctx.config.sendAckTimeoutMs / 2)),
  ]
  for (const timer of timers) timer.unref()
  return () => {
    for (const timer of timers) clearInterval(timer)
  }
}
