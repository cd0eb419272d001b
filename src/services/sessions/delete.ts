import { and, count, eq, type SQL } from 'drizzle-orm'
import type { SQLiteTable } from 'drizzle-orm/sqlite-core'
import {
  chatStates,
  historyChunks,
  chatwootChats,
  chatwootConfigs,
  chatwootMessages,
  contactNames,
  groupParticipants,
  groups,
  idempotencyKeys,
  isLive,
  mediaFiles,
  messages,
  pollVotes,
  type Session,
  sessions,
  waAuth,
  webhookDeliveries,
  webhookEvents,
  webhookPreviousSecrets,
  webhookSequences,
  webhookSubscriptions,
} from '../../db/schema'
import { GatewayError } from '../../errors'
import { mediaKey } from '../../media/store'
import type { DeletedSession } from '../../schemas/session'
import type { DbOrTx } from '../../webhooks/outbox'
import type { GatewayContext } from '../context'
import { findSession, sessionById, sessionNotFound } from './view'

/**
 * Removes a session that is not live (expired, logged out, disconnected) with everything kept
 * for it, and answers what went, per kind. A live one (pending, connecting, connected) is 409:
 * disconnect it first. Order matters:
 * 1. its engine handle is ended first: a disconnected session may still be reconnecting in the
 *    background only to unlink its device (unlink.ts), and a socket left running could write
 *    keys, records or events for a session that no longer exists. Without credentials nothing
 *    reopens it (the unlink retry reads the row, finds none and stops);
 * 2. every row, in one immediate transaction that checks the status again (a connect may have
 *    re-paired the name meanwhile: 409 then) and deletes the session last: all of it or nothing;
 * 3. the stored files, after the commit (see removeFiles).
 * A second DELETE of the same session, at once or later, is 404.
 */
export async function deleteSession(
  ctx: GatewayContext,
  { workspaceId, sessionId }: { workspaceId: string; sessionId: string },
): Promise<DeletedSession> {
  assertNotLive(findSession(ctx, workspaceId, sessionId))
  await ctx.engine.session(sessionId)?.end()
  const { session, removed, files } = ctx.db.transaction(
    (tx) => {
      const current = sessionById(tx, sessionId)
      if (current?.workspaceId !== workspaceId) throw sessionNotFound(tx, workspaceId, sessionId)
      assertNotLive(current)
      return { session: current, ...removeRows(tx, current) }
    },
    { behavior: 'immediate' },
  )
  // The credentials' rows went with the session; this drops what the engine keeps of them in memory.
  ctx.engine.wipeCredentials(sessionId)
  await removeFiles(ctx, sessionId, files)
  ctx.logger.info({ sessionId, removed }, 'session deleted')
  return { sessionId, sessionName: session.name, removed }
}

function assertNotLive(session: Session): void {
  if (!isLive(session.status)) return
  throw new GatewayError(
    'session_state_conflict',
    `Session "${session.id}" is ${session.status}: disconnect it first (DELETE /v1/session/disconnect/${session.id}), then delete it`,
    { status: session.status },
  )
}

/** Counts, then deletes, the session's rows of each kind, the session row last; answers the counts and the stored files. */
function removeRows(tx: DbOrTx, session: Session) {
  const id = session.id
  const files = tx
    .select({ messageId: mediaFiles.messageId })
    .from(mediaFiles)
    .where(eq(mediaFiles.sessionId, id))
    .all()
  const drop = (table: SQLiteTable, where: SQL | undefined): number => {
    const n = tx.select({ n: count() }).from(table).where(where).get()?.n ?? 0
    if (n > 0) tx.delete(table).where(where).run()
    return n
  }
  // Explicit, child tables first, though most would cascade: the counts are the answer, and the
  // tables without a foreign key to sessions (media files, idempotency keys) would not. What
  // only belongs to a kind (poll votes to records, a Chatwoot inbox's chats and messages to its
  // config, participants to groups) goes with it and is not counted apart.
  drop(pollVotes, eq(pollVotes.sessionId, id))
  drop(chatwootMessages, eq(chatwootMessages.sessionId, id))
  drop(chatwootChats, eq(chatwootChats.sessionId, id))
  drop(groupParticipants, eq(groupParticipants.sessionId, id))
  // History's bookkeeping: its records are counted as messages.
  drop(historyChunks, eq(historyChunks.sessionId, id))
  drop(chatStates, eq(chatStates.sessionId, id))
  const removed = {
    messages: drop(messages, eq(messages.sessionId, id)),
    media: drop(mediaFiles, eq(mediaFiles.sessionId, id)),
    deliveries: drop(webhookDeliveries, eq(webhookDeliveries.sessionId, id)),
    events: drop(webhookEvents, eq(webhookEvents.sessionId, id)),
    chatwoot: drop(chatwootConfigs, eq(chatwootConfigs.sessionId, id)),
    webhooks: drop(
      webhookSubscriptions,
      and(eq(webhookSubscriptions.sessionId, id), eq(webhookSubscriptions.kind, 'webhook')),
    ),
    groups: drop(groups, eq(groups.sessionId, id)),
    contacts: drop(contactNames, eq(contactNames.sessionId, id)),
    authKeys: drop(waAuth, eq(waAuth.sessionId, id)),
    idempotencyKeys: drop(
      idempotencyKeys,
      and(eq(idempotencyKeys.workspaceId, session.workspaceId), eq(idempotencyKeys.sessionId, id)),
    ),
  }
  // The Chatwoot inbox's own stream, counted with its config above.
  drop(webhookSubscriptions, eq(webhookSubscriptions.sessionId, id))
  drop(webhookSequences, eq(webhookSequences.sessionId, id))
  drop(webhookPreviousSecrets, eq(webhookPreviousSecrets.sessionId, id))
  tx.delete(sessions).where(eq(sessions.id, id)).run()
  return { removed, files: files.map((file) => file.messageId) }
}

/**
 * The session's stored files, deleted once its rows are committed: the store (a directory, a
 * bucket) cannot take part in the transaction, and deleting first would leave, if the
 * transaction then failed (a connect re-paired the name), messages whose files are gone. A
 * failure or a crash here leaves objects no row names, under keys made from an id never used
 * again: unreachable, and logged for the operator.
 */
async function removeFiles(ctx: GatewayContext, sessionId: string, messageIds: string[]): Promise<void> {
  const store = ctx.inboundMedia.store
  if (!store || messageIds.length === 0) return
  try {
    await store.delete(messageIds.map((messageId) => mediaKey(sessionId, messageId)))
  } catch (error) {
    ctx.logger.error({ err: error, sessionId, files: messageIds.length }, 'deleted session’s files were not removed')
  }
}
