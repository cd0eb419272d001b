import { and, asc, eq, isNull, ne, or, sql } from 'drizzle-orm'
import { mediaFiles, messages, type MediaFileRow } from '../../db/schema'
import { mediaKey } from '../../media/store'
import type { GatewayContext } from '../context'

/** Rows deleted per round: a large prune goes in slices, each a short query. */
const BATCH = 500

/** Deletes stored files and their rows: objects first, so a row never names nothing it should not. */
async function remove(ctx: GatewayContext, rows: Pick<MediaFileRow, 'sessionId' | 'messageId'>[]): Promise<void> {
  if (rows.length === 0) return
  await ctx.inboundMedia.store?.delete(rows.map((row) => mediaKey(row.sessionId, row.messageId)))
  for (const row of rows)
    ctx.db
      .delete(mediaFiles)
      .where(and(eq(mediaFiles.sessionId, row.sessionId), eq(mediaFiles.messageId, row.messageId)))
      .run()
}

/**
 * The files of records that are gone (MESSAGE_RETENTION_DAYS pruned them): run by the hourly
 * housekeeping right after the records' own pruning. Answers how many were deleted.
 */
export async function pruneMediaFiles(ctx: GatewayContext): Promise<number> {
  let removed = 0
  for (;;) {
    const orphans = ctx.db
      .select({ sessionId: mediaFiles.sessionId, messageId: mediaFiles.messageId })
      .from(mediaFiles)
      .leftJoin(messages, and(eq(messages.sessionId, mediaFiles.sessionId), eq(messages.id, mediaFiles.messageId)))
      .where(isNull(messages.id))
      .limit(BATCH)
      .all()
    await remove(ctx, orphans)
    removed += orphans.length
    if (orphans.length < BATCH) return removed
  }
}

/**
 * Keeps the store within MEDIA_STORE_MAX_BYTES: past it, the files stored longest ago go (a
 * later download fetches them from WhatsApp again), never `keep`, the one just stored.
 */
export async function enforceStoreCap(
  ctx: GatewayContext,
  { keep }: { keep?: { sessionId: string; id: string } } = {},
): Promise<number> {
  const cap = ctx.config.inboundMedia.maxStoreBytes
  const total = () =>
    ctx.db
      .select({ bytes: sql<number>`coalesce(sum(${mediaFiles.size}), 0)` })
      .from(mediaFiles)
      .get()!.bytes
  let over = total() - cap
  let removed = 0
  while (over > 0) {
    const spared = keep ? or(ne(mediaFiles.sessionId, keep.sessionId), ne(mediaFiles.messageId, keep.id)) : undefined
    const oldest = ctx.db.select().from(mediaFiles).where(spared).orderBy(asc(mediaFiles.storedAt)).limit(BATCH).all()
    if (oldest.length === 0) return removed
    const evict: MediaFileRow[] = []
    for (const row of oldest) {
      if (over <= 0) break
      evict.push(row)
      over -= row.size
    }
    await remove(ctx, evict)
    removed += evict.length
    over = total() - cap
  }
  return removed
}
