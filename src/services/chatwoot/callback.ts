import { and, eq } from 'drizzle-orm'
import { z } from 'zod'
import { chatwootChats, chatwootConfigs, chatwootMessages, sessions, workspaces } from '../../db/schema'
import { GatewayError } from '../../errors'
import {
  DeleteMessageBody,
  SendAudioBody,
  SendDocumentBody,
  SendImageBody,
  SendTextBody,
  SendVideoBody,
} from '../../schemas/message'
import type { GatewayContext } from '../context'
import { deleteMessage } from '../messages/change/delete'
import type { SendInput } from '../messages/send/prepare'
import { sendMessage } from '../messages/send/send'
import { validationError } from '../validation-error'
import { isCallbackToken } from './network'
import { CHATWOOT_SEND_KEY } from './sink'

/** What the gateway reads of Chatwoot's webhook payload (message_created, message_updated); the rest is ignored. */
export const ChatwootCallback = z.looseObject({
  event: z.string().max(100),
  id: z.number().int().optional(),
  content: z.string().max(65_536).nullish(),
  message_type: z.union([z.string(), z.number()]).optional(),
  private: z.boolean().optional(),
  source_id: z.string().max(500).nullish(),
  content_attributes: z.looseObject({ deleted: z.boolean().optional() }).nullish(),
  sender: z.looseObject({ name: z.string().max(500).nullish(), type: z.string().max(100).nullish() }).nullish(),
  conversation: z
    .looseObject({
      id: z.number().int(),
      inbox_id: z.number().int().optional(),
      contact_inbox: z.looseObject({ source_id: z.string().max(500).nullish() }).nullish(),
    })
    .nullish(),
  inbox: z.looseObject({ id: z.number().int() }).nullish(),
  attachments: z
    .array(z.looseObject({ file_type: z.string().max(50).nullish(), data_url: z.string().max(4096) }))
    .max(20)
    .nullish(),
})
export type ChatwootCallbackInput = z.infer<typeof ChatwootCallback>

type Outcome = { handled: true; messageIds: string[] } | { handled: false; reason: string }

const ignored = (reason: string): Outcome => ({ handled: false, reason })

/**
 * Chatwoot → WhatsApp: an agent's reply (message_created, outgoing, not private) in one of the
 * session's conversations is sent to the chat, once (its Chatwoot id is the sends'
 * Idempotency-Key, so a callback delivered twice sends once); a message deleted in Chatwoot is
 * deleted for everyone. Messages the gateway itself created in Chatwoot (source_id WAID:…)
 * come back here too and are never sent back.
 */
export async function handleChatwootCallback(
  ctx: GatewayContext,
  args: { sessionId: string; token: string; payload: unknown },
): Promise<Outcome> {
  const found = ctx.db
    .select({ config: chatwootConfigs, workspaceId: sessions.workspaceId, plan: workspaces.plan })
    .from(chatwootConfigs)
    .innerJoin(sessions, eq(sessions.id, chatwootConfigs.sessionId))
    .innerJoin(workspaces, eq(workspaces.id, sessions.workspaceId))
    .where(eq(chatwootConfigs.sessionId, args.sessionId))
    .get()
  // Same answer for an unknown session and a wrong token: the URL is the credential.
  if (!found || !isCallbackToken(ctx, args.sessionId, args.token))
    throw new GatewayError('unauthorized', 'Not a Chatwoot callback URL of this gateway')
  const parsed = ChatwootCallback.safeParse(args.payload)
  if (!parsed.success)
    throw validationError(parsed.error.issues.map((i) => ({ path: i.path.join('.') || 'body', message: i.message })))
  const callback = parsed.data
  const { config, workspaceId, plan } = found
  const inboxId = callback.inbox?.id ?? callback.conversation?.inbox_id
  if (inboxId !== undefined && inboxId !== config.inboxId) return ignored('another inbox')
  if (callback.source_id?.startsWith('WAID:')) return ignored('created by the gateway')
  if (!callback.conversation || callback.id === undefined) return ignored('not a message')

  if (callback.event === 'message_updated' && callback.content_attributes?.deleted) {
    const mapped = ctx.db
      .select()
      .from(chatwootMessages)
      .where(and(eq(chatwootMessages.sessionId, config.sessionId), eq(chatwootMessages.chatwootMessageId, callback.id)))
      .all()
    if (mapped.length === 0) return ignored('not a message the gateway sent')
    const chat = chatOfConversation(ctx, config.sessionId, callback)
    if (!chat) return ignored('unknown conversation')
    for (const m of mapped) {
      await deleteMessage(ctx, {
        workspaceId,
        input: DeleteMessageBody.parse({ sessionId: config.sessionId, messageId: m.waMessageId, phone: chat }),
      })
    }
    return { handled: true, messageIds: mapped.map((m) => m.waMessageId) }
  }
  if (callback.event !== 'message_created') return ignored(`event ${callback.event}`)
  if (callback.message_type !== 'outgoing' && callback.message_type !== 1) return ignored('not an outgoing message')
  if (callback.private) return ignored('a private note')

  const chat = chatOfConversation(ctx, config.sessionId, callback)
  if (!chat) return ignored('unknown conversation')
  const signed = config.signAgentName && callback.sender?.name && callback.sender.type !== 'contact'
  const text = [signed ? `*${callback.sender!.name}*` : '', callback.content ?? ''].filter(Boolean).join('\n')
  if (!callback.content?.trim() && !callback.attachments?.length) return ignored('nothing to send')
  const inputs = asSends(() => sendsOf(config.sessionId, chat, text, callback.attachments ?? []))
  const messageIds: string[] = []
  for (const [index, input] of inputs.entries()) {
    const record = await sendMessage(ctx, {
      workspaceId,
      plan,
      input,
      idempotencyKey: `${CHATWOOT_SEND_KEY}${config.sessionId}:${callback.id}:${index}`,
    })
    ctx.db
      .insert(chatwootMessages)
      .values({
        sessionId: config.sessionId,
        waMessageId: record.messageId,
        chatwootMessageId: callback.id,
        conversationId: callback.conversation.id,
        createdAt: ctx.clock.now(),
      })
      .onConflictDoNothing()
      .run()
    messageIds.push(record.messageId)
  }
  return { handled: true, messageIds }
}

/** The chat of a conversation the gateway made (or of its contact-inbox's source_id). */
function chatOfConversation(
  ctx: GatewayContext,
  sessionId: string,
  callback: ChatwootCallbackInput,
): string | undefined {
  const bySession = eq(chatwootChats.sessionId, sessionId)
  const sourceId = callback.conversation?.contact_inbox?.source_id
  const row =
    ctx.db
      .select()
      .from(chatwootChats)
      .where(and(bySession, eq(chatwootChats.conversationId, callback.conversation!.id)))
      .get() ??
    (sourceId
      ? ctx.db
          .select()
          .from(chatwootChats)
          .where(and(bySession, eq(chatwootChats.sourceId, sourceId)))
          .get()
      : undefined)
  if (!row) return undefined
  return row.phone ?? (row.lid ? (row.lid.endsWith('@lid') ? row.lid : `${row.lid}@lid`) : row.chatKey)
}

/** What a send's own schema refuses (an attachment URL that is none, a text over the limit) is the callback's 400, never a 500. */
function asSends(build: () => SendInput[]): SendInput[] {
  try {
    return build()
  } catch (error) {
    if (!(error instanceof z.ZodError)) throw error
    throw validationError(
      error.issues.slice(0, 20).map((i) => ({ path: i.path.join('.') || 'body', message: i.message })),
    )
  }
}

/** An attachment by Chatwoot's file type: the gateway fetches its data_url through the guarded fetcher. */
function sendsOf(
  sessionId: string,
  phone: string,
  text: string,
  attachments: { file_type?: string | null; data_url: string }[],
): SendInput[] {
  if (attachments.length === 0) return [{ kind: 'text', ...SendTextBody.parse({ sessionId, phone, message: text }) }]
  return attachments.map((file, index): SendInput => {
    const caption = index === 0 && text ? text : undefined
    switch (file.file_type) {
      case 'image':
        return { kind: 'image', ...SendImageBody.parse({ sessionId, phone, imageUrl: file.data_url, caption }) }
      case 'video':
        return { kind: 'video', ...SendVideoBody.parse({ sessionId, phone, videoUrl: file.data_url, caption }) }
      case 'audio':
        return { kind: 'audio', ...SendAudioBody.parse({ sessionId, phone, audioUrl: file.data_url }) }
      default:
        return {
          kind: 'document',
          ...SendDocumentBody.parse({
            sessionId,
            phone,
            documentUrl: file.data_url,
            caption,
            fileName: fileNameOf(file.data_url),
          }),
        }
    }
  })
}

const fileNameOf = (url: string) => {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').pop() || 'file').slice(0, 200) || 'file'
  } catch {
    return 'file'
  }
}
