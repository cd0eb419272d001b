import { asc, eq } from 'drizzle-orm'
import { labelChats, labelMessages, labels } from '../../db/schema'
import type { ServiceContext } from '../context'
import { findSession } from '../sessions/view'
import { labelView } from './access'

/**
 * The session's labels with the chats and messages carrying each, from the gateway's own rows
 * (kept by app-state sync), so an offline session lists too. Bounded: 20 labels at most.
 */
export function listLabels(
  ctx: ServiceContext,
  { workspaceId, sessionId }: { workspaceId: string; sessionId: string },
) {
  const session = findSession(ctx, workspaceId, sessionId)
  return ctx.db.transaction(
    (tx) => {
      const rows = tx.select().from(labels).where(eq(labels.sessionId, session.id)).orderBy(asc(labels.createdAt)).all()
      const chats = tx.select().from(labelChats).where(eq(labelChats.sessionId, session.id)).all()
      const messages = tx.select().from(labelMessages).where(eq(labelMessages.sessionId, session.id)).all()
      return {
        sessionId: session.id,
        labels: rows.map((label) => ({
          ...labelView(label),
          chats: chats.filter((row) => row.labelId === label.id).map((row) => row.chat),
          messages: messages
            .filter((row) => row.labelId === label.id)
            .map((row) => ({ chatJid: row.chatJid, messageId: row.messageId })),
        })),
      }
    },
    { behavior: 'deferred' },
  )
}
