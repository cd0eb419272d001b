import { lt } from 'drizzle-orm'
import { messages } from '../../../db/schema'
import type { ServiceContext } from '../../context'
import { pruneIdempotencyKeys } from '../send/idempotency'

const DAY_MS = 24 * 60 * 60 * 1000

/** Deletes message records past MESSAGE_RETENTION_DAYS and idempotency keys past 24 h. */
export function pruneMessages(ctx: ServiceContext): { messages: number; idempotencyKeys: number } {
  const days = ctx.config.messageRetentionDays
  let removed = 0
  if (days > 0) {
    const cutoff = new Date(ctx.clock.now().getTime() - days * DAY_MS)
    removed = ctx.db.delete(messages).where(lt(messages.createdAt, cutoff)).returning({ id: messages.id }).all().length
  }
  return { messages: removed, idempotencyKeys: pruneIdempotencyKeys(ctx) }
}
