import { and, eq, sql } from 'drizzle-orm'
import { chatStates, historyChunks, sessions } from '../../db/schema'
import type { HistoryChunkNotice } from '../../engine/whatsapp/port/history'
import type { DbOrTx } from '../../webhooks/outbox'
import type { GatewayContext } from '../context'
import { wakeHistoryImports } from './import'

/**
 * A history chunk the phone announced: kept before Baileys acknowledges the notification (this
 * runs inside the engine's report), so a crash before it is read loses nothing: the next start
 * reads it. WhatsApp re-sending it is the same row. Only for sessions that asked for history.
 */
export function keepHistoryChunk(ctx: GatewayContext, sessionId: string, chunk: HistoryChunkNotice): void {
  const now = ctx.clock.now()
  const kept = ctx.db.transaction(
    (tx) => {
      const session = tx.select({ history: sessions.history }).from(sessions).where(eq(sessions.id, sessionId)).get()
      if (!session?.history) return false
      return (
        tx
          .insert(historyChunks)
          .values({
            sessionId,
            id: chunk.id,
            syncType: chunk.syncType,
            chunkOrder: chunk.chunkOrder,
            progress: chunk.progress,
            notification: Buffer.from(chunk.notification),
            state: 'pending',
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoNothing()
          .returning({ id: historyChunks.id })
          .all().length > 0
      )
    },
    { behavior: 'immediate' },
  )
  if (!kept) return
  ctx.logger.info(
    { sessionId, syncType: chunk.syncType, chunk: chunk.chunkOrder, progress: chunk.progress },
    'history chunk announced',
  )
  wakeHistoryImports(ctx)
}

/** The session's history totals so far, over the chunks read. */
export function historyTotals(db: Pick<DbOrTx, 'select'>, sessionId: string) {
  const sums = db
    .select({
      messages: sql<number>`coalesce(sum(${historyChunks.messages}), 0)`,
      contacts: sql<number>`coalesce(sum(${historyChunks.contacts}), 0)`,
      skipped: sql<number>`coalesce(sum(${historyChunks.skipped}), 0)`,
      chunks: sql<number>`count(*)`,
      incomplete: sql<number>`coalesce(sum(${historyChunks.state} IN ('cut_off', 'expired')), 0)`,
      pending: sql<number>`coalesce(sum(${historyChunks.state} = 'pending'), 0)`,
      complete: sql<number>`coalesce(max(${historyChunks.progress} = 100 AND ${historyChunks.state} != 'pending'), 0)`,
      firstAt: sql<number>`min(${historyChunks.createdAt})`,
    })
    .from(historyChunks)
    .where(eq(historyChunks.sessionId, sessionId))
    .get()!
  const chats = db
    .select({ n: sql<number>`count(*)` })
    .from(chatStates)
    .where(eq(chatStates.sessionId, sessionId))
    .get()!.n
  return { ...sums, chats }
}

/** Unlinked: the next link's history starts afresh (what was imported stays, as records do). */
export function forgetHistoryChunks(tx: Pick<DbOrTx, 'delete'>, sessionId: string): void {
  tx.delete(historyChunks)
    .where(and(eq(historyChunks.sessionId, sessionId)))
    .run()
}
