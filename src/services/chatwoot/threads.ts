import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { type ChatwootChat, type ChatwootConfig, chatwootChats } from '../../db/schema'
import type { GatewayContext } from '../context'
import { ChatwootError, type ChatwootClient } from './client'

/** A WhatsApp chat as the integration sees it: a person (by number and/or LID) or a group. */
export interface ChatRef {
  phone: string | null
  lid: string | null
  groupJid: string | null
  /** What Chatwoot shows: a push name, the group's subject, else the number. */
  name: string
}

const keyOf = (chat: ChatRef) => chat.groupJid ?? chat.phone ?? `${chat.lid}@lid`

/** The gateway's own identifier of a Chatwoot contact: stable for the person whatever they arrive by. */
export const identifierOf = (row: Pick<ChatwootChat, 'sourceId'>) => `wa-gateway:${row.sourceId}`

/**
 * The chat's row, found by number or by LID (the same person arriving by phone, then by LID, is
 * one row: its missing half is filled in), or written now, before Chatwoot is asked for anything.
 */
function chatRow(ctx: GatewayContext, sessionId: string, chat: ChatRef): ChatwootChat {
  const bySession = eq(chatwootChats.sessionId, sessionId)
  const find = (column: typeof chatwootChats.phone | typeof chatwootChats.lid, value: string | null) =>
    value
      ? ctx.db
          .select()
          .from(chatwootChats)
          .where(and(bySession, eq(column, value)))
          .get()
      : undefined
  const existing = chat.groupJid
    ? ctx.db
        .select()
        .from(chatwootChats)
        .where(and(bySession, eq(chatwootChats.chatKey, chat.groupJid)))
        .get()
    : (find(chatwootChats.phone, chat.phone) ?? find(chatwootChats.lid, chat.lid))
  const now = ctx.clock.now()
  if (existing) {
    if (!chat.groupJid && ((chat.phone && !existing.phone) || (chat.lid && !existing.lid))) {
      const filled = { phone: existing.phone ?? chat.phone, lid: existing.lid ?? chat.lid, updatedAt: now }
      ctx.db
        .update(chatwootChats)
        .set(filled)
        .where(and(bySession, eq(chatwootChats.chatKey, existing.chatKey)))
        .run()
      return { ...existing, ...filled }
    }
    return existing
  }
  const row: ChatwootChat = {
    sessionId,
    chatKey: keyOf(chat),
    phone: chat.groupJid ? null : chat.phone,
    lid: chat.groupJid ? null : chat.lid,
    contactId: null,
    sourceId: randomUUID(),
    conversationId: null,
    createdAt: now,
    updatedAt: now,
  }
  ctx.db.insert(chatwootChats).values(row).onConflictDoNothing().run()
  return ctx.db
    .select()
    .from(chatwootChats)
    .where(and(bySession, eq(chatwootChats.chatKey, row.chatKey)))
    .get()!
}

function save(ctx: GatewayContext, row: ChatwootChat, change: Partial<ChatwootChat>): ChatwootChat {
  const next = { ...row, ...change, updatedAt: ctx.clock.now() }
  ctx.db
    .update(chatwootChats)
    .set({ contactId: next.contactId, conversationId: next.conversationId, updatedAt: next.updatedAt })
    .where(and(eq(chatwootChats.sessionId, row.sessionId), eq(chatwootChats.chatKey, row.chatKey)))
    .run()
  return next
}

const e164 = (digits: string | null) => (digits ? `+${digits}` : undefined)

/**
 * The chat's Chatwoot contact: the one with the gateway's identifier, else the one with its
 * number (a person someone added by hand), else a new one; then its contact-inbox on the
 * row's `sourceId`. Every step looks before it creates, so a retry after a crash finds what
 * the first attempt made.
 */
async function ensureContact(
  ctx: GatewayContext,
  client: ChatwootClient,
  config: ChatwootConfig,
  chat: ChatRef,
  row: ChatwootChat,
): Promise<ChatwootChat> {
  if (row.contactId) return row
  const identifier = identifierOf(row)
  const phone = e164(row.phone)
  const find = async () => {
    const byIdentifier = (await client.searchContacts(identifier)).find((c) => c.identifier === identifier)
    if (byIdentifier || !phone) return byIdentifier
    return (await client.searchContacts(phone)).find((c) => c.phone_number === phone)
  }
  let contactId = (await find())?.id
  if (!contactId) {
    try {
      const created = { inboxId: config.inboxId, sourceId: row.sourceId, name: chat.name, phone, identifier }
      return save(ctx, row, { contactId: await client.createContact(created) })
    } catch (error) {
      // Taken meanwhile (another chat of the same person, a human): theirs is ours.
      if (!(error instanceof ChatwootError) || error.status !== 422) throw error
      contactId = (await find())?.id
      if (!contactId) throw error
    }
  }
  try {
    await client.addContactInbox(contactId, config.inboxId, row.sourceId)
  } catch (error) {
    if (!(error instanceof ChatwootError) || error.status !== 422) throw error // 422: it has it already
  }
  return save(ctx, row, { contactId })
}

/**
 * The conversation a message of this chat goes to: the current one while open or pending; a
 * resolved one reopened (reopenResolved) or replaced by a new one; one that is gone (deleted
 * in Chatwoot, with its contact perhaps) re-created instead of blocking the chat.
 */
export async function ensureConversation(
  ctx: GatewayContext,
  client: ChatwootClient,
  config: ChatwootConfig,
  chat: ChatRef,
): Promise<{ conversationId: number; row: ChatwootChat }> {
  let row = chatRow(ctx, config.sessionId, chat)
  for (let attempt = 0; ; attempt++) {
    try {
      row = await ensureContact(ctx, client, config, chat, row)
      if (row.conversationId) {
        const current = await client.getConversation(row.conversationId)
        if (current.status !== 'resolved') return { conversationId: row.conversationId, row }
        if (config.reopenResolved) {
          await client.setStatus(row.conversationId, 'open')
          return { conversationId: row.conversationId, row }
        }
        row = save(ctx, row, { conversationId: null })
      }
      const open = (await client.contactConversations(row.contactId!)).find(
        (c) => c.inbox_id === config.inboxId && c.status !== 'resolved' && c.id !== row.conversationId,
      )
      const conversationId =
        open?.id ??
        (await client.createConversation({
          sourceId: row.sourceId,
          inboxId: config.inboxId,
          contactId: row.contactId!,
          status: config.startPending ? 'pending' : 'open',
        }))
      row = save(ctx, row, { conversationId })
      return { conversationId, row }
    } catch (error) {
      // Deleted in Chatwoot (the contact, or the conversation): start the chat's thread afresh, once.
      if (attempt > 0 || !(error instanceof ChatwootError) || error.status !== 404) throw error
      row = save(ctx, row, { contactId: null, conversationId: null })
    }
  }
}

/** Forgets a conversation Chatwoot no longer has, so the next message starts a new one. */
export function forgetConversation(ctx: GatewayContext, row: ChatwootChat): void {
  save(ctx, row, { contactId: null, conversationId: null })
}
