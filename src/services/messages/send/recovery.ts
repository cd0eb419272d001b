import { and, eq, inArray, isNull } from 'drizzle-orm'
import { idempotencyKeys, messages } from '../../../db/schema'
import type { ServiceContext } from '../../context'
import { advanceStatus } from '../records/records'

/**
 * At start, before any session reconnects: sends the previous process recorded but never handed
 * to WhatsApp (it died first, so no proto was kept and no client got a 200 for them) become
 * `failed` with `gateway_restarted`, announced by their `message.status` event. Their
 * Idempotency-Keys, and keys claimed by sends that died before making a record, are released:
 * a retry sends the message (once). Answers how many records failed.
 */
export function failUnsentSends(ctx: ServiceContext): number {
  const unsent = ctx.db
    .select({ sessionId: messages.sessionId, id: messages.id })
    .from(messages)
    .where(and(eq(messages.status, 'pending'), isNull(messages.payload)))
    .all()
  for (const { sessionId, id } of unsent)
    advanceStatus(ctx, sessionId, id, { status: 'failed', reason: 'gateway_restarted' })
  ctx.db.delete(idempotencyKeys).where(isNull(idempotencyKeys.messageId)).run()
  const ids = unsent.map((row) => row.id)
  for (let at = 0; at < ids.length; at += 500) {
    ctx.db
      .delete(idempotencyKeys)
      .where(inArray(idempotencyKeys.messageId, ids.slice(at, at + 500)))
      .run()
  }
  if (unsent.length > 0)
    ctx.logger.warn({ records: unsent.length }, 'sends never handed to WhatsApp before the restart marked failed')
  return unsent.length
}
