import { and, eq } from 'drizzle-orm'
import { labelChats, labelMessages, labels } from '../../db/schema'
import type { LabelChange } from '../../engine/whatsapp/port/labels'
import type { DbOrTx, NewEvent } from '../../webhooks/outbox'

/** A chat jid as the chat list keys a chat: a number's digits, `<lid>@lid`, or the group's jid. */
export function chatKeyOfJid(jid: string): string {
  const [user = '', server = ''] = jid.split('@')
  const bare = user.split(':')[0] ?? user
  if (server === 's.whatsapp.net' || server === 'c.us') return bare
  if (server === 'lid') return `${bare}@lid`
  return jid
}

type LabelEvent = NewEvent<'label.upserted'> | NewEvent<'label.deleted'> | NewEvent<'label.association'>

/**
 * Applies one label change to the session's rows and answers its event, or nothing when the rows
 * already said so: the API's own change is applied when WhatsApp took it and again when app-state
 * sync reports it, and only the first writes an event.
 */
export function applyLabelChange(
  tx: DbOrTx,
  sessionId: string,
  change: LabelChange,
  now: Date,
): LabelEvent | undefined {
  switch (change.kind) {
    case 'edited': {
      const { id, name, color, predefinedId = null } = change.label
      const known = tx
        .select()
        .from(labels)
        .where(and(eq(labels.sessionId, sessionId), eq(labels.id, id)))
        .get()
      if (known && known.name === name && known.color === color && known.predefinedId === predefinedId) return
      tx.insert(labels)
        .values({ sessionId, id, name, color, predefinedId, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: [labels.sessionId, labels.id],
          set: { name, color, predefinedId, updatedAt: now },
        })
        .run()
      return { sessionId, type: 'label.upserted', data: { labelId: id, name, color, predefinedId }, at: now }
    }
    case 'deleted': {
      const { labelId } = change
      const gone = tx
        .delete(labels)
        .where(and(eq(labels.sessionId, sessionId), eq(labels.id, labelId)))
        .returning({ id: labels.id })
        .all()
      tx.delete(labelChats)
        .where(and(eq(labelChats.sessionId, sessionId), eq(labelChats.labelId, labelId)))
        .run()
      tx.delete(labelMessages)
        .where(and(eq(labelMessages.sessionId, sessionId), eq(labelMessages.labelId, labelId)))
        .run()
      return gone.length ? { sessionId, type: 'label.deleted', data: { labelId }, at: now } : undefined
    }
    case 'chat': {
      const { labelId, labeled } = change
      const chat = chatKeyOfJid(change.chatJid)
      const where = and(eq(labelChats.sessionId, sessionId), eq(labelChats.labelId, labelId), eq(labelChats.chat, chat))
      const changed = labeled
        ? tx
            .insert(labelChats)
            .values({ sessionId, labelId, chat, createdAt: now })
            .onConflictDoNothing()
            .returning()
            .all()
        : tx.delete(labelChats).where(where).returning().all()
      if (changed.length === 0) return
      const action = labeled ? 'added' : 'removed'
      return { sessionId, type: 'label.association', data: { labelId, action, chat, messageId: null }, at: now }
    }
    case 'message': {
      const { labelId, labeled, chatJid, messageId } = change
      const where = and(
        eq(labelMessages.sessionId, sessionId),
        eq(labelMessages.labelId, labelId),
        eq(labelMessages.chatJid, chatJid),
        eq(labelMessages.messageId, messageId),
      )
      const changed = labeled
        ? tx
            .insert(labelMessages)
            .values({ sessionId, labelId, chatJid, messageId, createdAt: now })
            .onConflictDoNothing()
            .returning()
            .all()
        : tx.delete(labelMessages).where(where).returning().all()
      if (changed.length === 0) return
      const action = labeled ? 'added' : 'removed'
      const chat = chatKeyOfJid(chatJid)
      return { sessionId, type: 'label.association', data: { labelId, action, chat, messageId }, at: now }
    }
  }
}

/** Unlink hook: another account linked later has labels of its own. */
export function forgetLabels(tx: Pick<DbOrTx, 'delete'>, sessionId: string): void {
  tx.delete(labels).where(eq(labels.sessionId, sessionId)).run()
  tx.delete(labelChats).where(eq(labelChats.sessionId, sessionId)).run()
  tx.delete(labelMessages).where(eq(labelMessages.sessionId, sessionId)).run()
}
