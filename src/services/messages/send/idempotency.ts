import { createHash } from 'node:crypto'
import { and, eq, lt } from 'drizzle-orm'
import { idempotencyKeys } from '../../../db/schema'
import { GatewayError } from '../../../errors'
import type { GatewayContext, ServiceContext } from '../../context'
import { findRecord } from '../records/records'

/** How long a key answers with its first result. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000

type Claim = { state: 'done'; messageId: string } | { state: 'wait' } | { state: 'claimed' }

export interface IdempotencyScope {
  workspaceId: string
  sessionId: string
  key: string | undefined
  /** Which endpoint and what body: a different request under the same key is refused. */
  request: unknown
}

const hashRequest = (request: unknown) => createHash('sha256').update(JSON.stringify(request)).digest('hex')

/** Ties the key to the record a send made, as soon as there is one (before WhatsApp is asked). */
export type BindRecord = (messageId: string) => void

/**
 * Runs a send at most once per Idempotency-Key (per workspace, 24 h) and answers the id of
 * the message it sent. The key is claimed in the database before sending and bound to the
 * record as soon as the send makes one: from then on a retry answers that record, whatever
 * happens to the request (a timeout, a crash). A concurrent retry waits for the first. A send
 * that ends without a record (refused, or never handed to WhatsApp) releases the key.
 */
export async function sendOnce(
  ctx: GatewayContext,
  scope: IdempotencyScope,
  send: (bind: BindRecord) => Promise<string>,
): Promise<string> {
  const { workspaceId, key } = scope
  if (!key) return send(() => {})
  const requestHash = hashRequest(scope.request)
  const inFlightKey = `${workspaceId}\u0000${key}`
  const now = ctx.clock.now()

  const claim = ctx.db.transaction(
    (tx): Claim => {
      const existing = tx
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.workspaceId, workspaceId), eq(idempotencyKeys.key, key)))
        .get()
      const live = existing && now.getTime() - existing.createdAt.getTime() < IDEMPOTENCY_WINDOW_MS
      if (live && existing.requestHash !== requestHash) {
        throw new GatewayError(
          'idempotency_key_reused',
          'This Idempotency-Key was used for a different request in the last 24 hours',
          {
            idempotencyKey: key.slice(0, 64),
          },
        )
      }
      // Still under way in this process (its record may be bound already): wait for its answer.
      if (live && ctx.inFlightSends.has(inFlightKey)) return { state: 'wait' }
      if (live && existing.messageId) return { state: 'done', messageId: existing.messageId }
      tx.insert(idempotencyKeys)
        .values({ workspaceId, key, requestHash, sessionId: scope.sessionId, messageId: null, createdAt: now })
        .onConflictDoUpdate({
          target: [idempotencyKeys.workspaceId, idempotencyKeys.key],
          set: { requestHash, sessionId: scope.sessionId, messageId: null, createdAt: now },
        })
        .run()
      return { state: 'claimed' }
    },
    { behavior: 'immediate' },
  )
  if (claim.state === 'done') return claim.messageId
  if (claim.state === 'wait') return ctx.inFlightSends.get(inFlightKey)!

  const where = and(eq(idempotencyKeys.workspaceId, workspaceId), eq(idempotencyKeys.key, key))
  let bound: string | undefined
  const bind: BindRecord = (messageId) => {
    bound = messageId
    ctx.db.update(idempotencyKeys).set({ messageId }).where(where).run()
  }
  const attempt = send(bind)
  ctx.inFlightSends.set(inFlightKey, attempt)
  try {
    const messageId = await attempt
    if (bound !== messageId) bind(messageId)
    return messageId
  } catch (error) {
    // The key follows the record: kept while the send's record exists, released otherwise.
    if (!bound || !findRecord(ctx, scope.sessionId, bound)) ctx.db.delete(idempotencyKeys).where(where).run()
    throw error
  } finally {
    ctx.inFlightSends.delete(inFlightKey)
  }
}

/** Forgets keys older than the window. */
export function pruneIdempotencyKeys(ctx: ServiceContext): number {
  const cutoff = new Date(ctx.clock.now().getTime() - IDEMPOTENCY_WINDOW_MS)
  return ctx.db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, cutoff))
    .returning({ key: idempotencyKeys.key })
    .all().length
}
