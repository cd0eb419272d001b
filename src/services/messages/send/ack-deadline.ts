import { and, eq, isNotNull, lt } from 'drizzle-orm'
import { messages } from '../../../db/schema'
import type { GatewayContext } from '../../context'
import { advanceStatus } from '../records/records'

/** Records looked at per sweep: a backlog is worked through over several, never in one long transaction. */
const BATCH = 500

/**
 * Sends handed to WhatsApp that its server never acknowledged within SEND_ACK_TIMEOUT_MS (the
 * connection died with the frame, or WhatsApp is silent) become `failed` with `no_server_ack`,
 * announced by their `message.status` event: a send never stays `pending` for ever. WhatsApp
 * acknowledges within a second when it has a message, so a missing ack also makes the engine
 * ping that session now (a silent socket is reconnected as `unresponsive`). Answers how many failed.
 */
export function failUnacknowledgedSends(ctx: GatewayContext): number {
  const cutoff = new Date(ctx.clock.now().getTime() - ctx.config.sendAckTimeoutMs)
  const late = ctx.db
    .select({ sessionId: messages.sessionId, id: messages.id })
    .from(messages)
    .where(and(eq(messages.status, 'pending'), lt(messages.createdAt, cutoff), isNotNull(messages.payload)))
    .limit(BATCH)
    .all()
  for (const { sessionId, id } of late) advanceStatus(ctx, sessionId, id, { status: 'failed', reason: 'no_server_ack' })
  if (late.length > 0) ctx.logger.warn({ records: late.length }, 'sends without a server ack marked failed')
  for (const sessionId of new Set(late.map((record) => record.sessionId)))
    ctx.engine.session(sessionId)?.checkLiveness()
  return late.length
}
