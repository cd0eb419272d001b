import { and, isNull, lt, ne, or } from 'drizzle-orm'
import { messages } from '../../../db/schema'
import type { ServiceContext } from '../../context'
import { pruneIdempotencyKeys } from '../send/idempotency'

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * Deletes message records past MESSAGE_RETENTION_DAYS and idempotency keys past 24 h. A record
 * imported from history is kept that long from its import, not from when it was sent: a year of
 * history would otherwise be gone at the next prune.
 */
export function pruneMessages(ctx: ServiceContext): { messages: number; idempotencyKeys: number } {
  const days = ctx.config.messageRetentionDays
  let removed = 0
  if (days > 0) {
    const cutoff = new Date(ctx.clock.now().getTime() - days * DAY_MS)
    removed = ctx.db
      .delete(messages)
      .where(
        and(
          lt(messages.createdAt, cutoff),
          or(isNull(messages.source), ne(messages.source, 'history'), lt(messages.updatedAt, cutoff)),
        ),
      )
      .returning({ id: messages.id })
      .all().length
  }
  return { messages: removed, idempotencyKeys: pruneIdempotencyKeys(ctx) }
}
