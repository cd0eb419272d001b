import { and, asc, eq, isNull, notInArray, sql } from 'drizzle-orm'
import { type HistoryChunkRow, historyChunks, sessions } from '../../db/schema'
import { EngineError } from '../../engine/whatsapp/port'
import type { GatewayContext } from '../context'
import { sessionById } from '../sessions/view'
import { historyTotals } from './chunks'
import type { HistoryImports } from './imports'
import { DEFAULT_HISTORY_MESSAGES } from './setting'
import { type ChunkTally, markUnreadChats, writeHistoryPart } from './write'

/** Chunks read at once in the whole gateway, one per session: bounds memory and SQLite's write load. */
const CONCURRENT_CHUNKS = 2
/** Records per transaction. */
const BATCH = 100
/** A compressed chunk is a few MB; its file may be no larger than this. */
const MAX_FILE_BYTES = 64 * 1024 * 1024
const IDLE_TIMEOUT_MS = 30_000
/** The phone's clock and ours differ; its day limit is counted from its own "now". */
const CLOCK_GRACE_MS = 60 * 60 * 1000

/**
 * Starts reading pending chunks, oldest first, up to CONCURRENT_CHUNKS at once and one per
 * session (a session's chunks are read in the order its phone sent them). Called when a chunk
 * is announced, when one is read, and at start (chunks a crash or a stop left pending).
 */
export function wakeHistoryImports(ctx: GatewayContext): void {
  const imports = ctx.history
  if (!imports.started || imports.stopping.signal.aborted) return
  const free = CONCURRENT_CHUNKS - imports.reading.size
  if (free <= 0) return
  const busy = [...imports.reading]
  const next = ctx.db
    .select()
    .from(historyChunks)
    .where(
      and(
        eq(historyChunks.state, 'pending'),
        busy.length ? notInArray(historyChunks.sessionId, busy) : undefined,
        // The oldest pending chunk of each session only.
        sql`${historyChunks}.rowid = (SELECT min(c.rowid) FROM ${historyChunks} c WHERE c.session_id = ${historyChunks.sessionId} AND c.state = 'pending')`,
      ),
    )
    .orderBy(asc(sql`${historyChunks}.rowid`))
    .limit(free)
    .all()
  for (const chunk of next) {
    imports.reading.add(chunk.sessionId)
    const run: Promise<void> = importChunk(ctx, chunk)
      .catch((error: unknown) =>
        ctx.logger.error({ err: error, sessionId: chunk.sessionId, chunkId: chunk.id }, 'history chunk failed'),
      )
      .finally(() => {
        imports.running.delete(run)
        imports.reading.delete(chunk.sessionId)
        wakeHistoryImports(ctx)
      })
    imports.running.add(run)
  }
}

/** The gateway stops: reads end at their next part, their chunks left pending for the next start. */
export async function stopHistoryImports(imports: HistoryImports): Promise<void> {
  imports.stopping.abort()
  await Promise.allSettled([...imports.running])
}

/**
 * Reads one chunk into the records, part by part, then reports it (history.progress) and, when
 * it was the last, the whole import (history.synced), in the transaction that marks it read. A
 * stop in the middle leaves it pending: read again at the next start, what was written is one
 * record per message still.
 */
async function importChunk(ctx: GatewayContext, chunk: HistoryChunkRow): Promise<void> {
  const session = sessionById(ctx.db, chunk.sessionId)
  if (!session) return
  const setting = session.history ?? { days: 365, maxMessages: DEFAULT_HISTORY_MESSAGES }
  const stored = historyTotals(ctx.db, session.id).messages
  const tally: ChunkTally = {
    chats: new Set(),
    messages: 0,
    contacts: 0,
    skipped: 0,
    room: Math.max(0, setting.maxMessages - stored),
    since: new Date(syncStart(ctx, chunk) - setting.days * 86_400_000 - CLOCK_GRACE_MS),
    unread: new Map(),
  }
  const started = Date.now()
  let state: 'done' | 'cut_off' | 'expired' = 'done'
  let reason: string | null = null
  try {
    const parts = ctx.engine.readHistory(session.id, chunk.notification, {
      maxFileBytes: MAX_FILE_BYTES,
      maxInflatedBytes: ctx.config.history.chunkMaxBytes,
      batchSize: BATCH,
      idleTimeoutMs: IDLE_TIMEOUT_MS,
      signal: ctx.history.stopping.signal,
    })
    for await (const part of parts) {
      if (ctx.history.stopping.signal.aborted) return
      writeHistoryPart(ctx, session.id, part, tally)
      // Let the API's requests in between batches.
      await new Promise((resolve) => setImmediate(resolve))
    }
  } catch (error) {
    if (ctx.history.stopping.signal.aborted) return
    if (!(error instanceof EngineError)) throw error
    state = error.kind === 'gone' ? 'expired' : 'cut_off'
    reason = error.message
    ctx.logger.warn({ sessionId: session.id, chunkId: chunk.id, kind: error.kind, reason }, 'history chunk cut off')
  }
  markUnreadChats(ctx, session.id, tally)
  finishChunk(ctx, chunk, tally, state, reason)
  ctx.metrics.historyChunk(state, tally.messages)
  ctx.logger.info(
    {
      sessionId: session.id,
      syncType: chunk.syncType,
      chunk: chunk.chunkOrder,
      progress: chunk.progress,
      state,
      messages: tally.messages,
      skipped: tally.skipped,
      ms: Date.now() - started,
    },
    'history chunk read',
  )
}

/** When this linking's sync began: its first chunk's arrival (ms). */
function syncStart(ctx: GatewayContext, chunk: HistoryChunkRow): number {
  const first = ctx.db
    .select({ at: sql<number>`min(${historyChunks.createdAt})` })
    .from(historyChunks)
    .where(eq(historyChunks.sessionId, chunk.sessionId))
    .get()?.at
  return Math.min(first ?? chunk.createdAt.getTime(), chunk.createdAt.getTime())
}

function finishChunk(
  ctx: GatewayContext,
  chunk: HistoryChunkRow,
  tally: ChunkTally,
  state: 'done' | 'cut_off' | 'expired',
  reason: string | null,
): void {
  const now = ctx.clock.now()
  const chunkCounts = {
    chats: tally.chats.size,
    messages: tally.messages,
    contacts: tally.contacts,
    skipped: tally.skipped,
  }
  ctx.db.transaction(
    (tx) => {
      const marked = tx
        .update(historyChunks)
        .set({ state, stateReason: reason, ...chunkCounts, updatedAt: now })
        .where(
          and(
            eq(historyChunks.sessionId, chunk.sessionId),
            eq(historyChunks.id, chunk.id),
            eq(historyChunks.state, 'pending'),
          ),
        )
        .returning({ id: historyChunks.id })
        .all().length
      // Unlinked meanwhile (its chunks forgotten): nothing to report.
      if (marked === 0) return
      const totals = historyTotals(tx, chunk.sessionId)
      const counts = {
        chats: totals.chats,
        messages: totals.messages,
        contacts: totals.contacts,
        skipped: totals.skipped,
      }
      ctx.outbox.record(tx, {
        sessionId: chunk.sessionId,
        type: 'history.progress',
        data: {
          syncType: chunk.syncType,
          chunk: chunk.chunkOrder,
          progress: chunk.progress,
          state,
          stateReason: reason,
          chunkCounts,
          ...counts,
        },
      })
      if (totals.pending > 0 || !totals.complete) return
      // Once per linking: the flag is cleared when the session pairs again.
      const first = tx
        .update(sessions)
        .set({ historySyncedAt: now })
        .where(and(eq(sessions.id, chunk.sessionId), isNull(sessions.historySyncedAt)))
        .returning({ id: sessions.id })
        .all().length
      if (first === 0) return
      ctx.outbox.record(tx, {
        sessionId: chunk.sessionId,
        type: 'history.synced',
        data: {
          ...counts,
          chunks: totals.chunks,
          incompleteChunks: totals.incomplete,
          durationMs: Math.max(0, now.getTime() - totals.firstAt),
        },
      })
      ctx.logger.info({ sessionId: chunk.sessionId, ...counts }, 'history synced')
    },
    { behavior: 'immediate' },
  )
}
