import { STATUS_CHAT } from '../../schemas/status'
import { and, eq, like } from 'drizzle-orm'
import {
  type ChatwootConfig,
  chatwootConfigs,
  chatwootMessages,
  idempotencyKeys,
  webhookSubscriptions,
} from '../../db/schema'
import type { MessageContent } from '../../shared/message-content'
import type { EventSink, WebhookResponse } from '../../webhooks/sender'
import type { GatewayContext } from '../context'
import { pushNameOf } from '../contacts/names'
import { storedGroup } from '../groups/store'
import { recordMedia } from '../media/serve'
import { findRecord } from '../messages/records/records'
import { type Attachment, ChatwootError, type ChatwootClient } from './client'
import { clientFor } from './network'
import { MAX_ATTACHMENT_BYTES, renderContent } from './render'
import { type ChatRef, ensureConversation } from './threads'

interface MessageEventData {
  messageId: string
  direction: 'inbound' | 'outbound'
  phone: string | null
  lid: string | null
  participant?: string | null
  type: string
  content: MessageContent
  emoji?: string
  fromMe?: boolean
  removed?: boolean
}

interface Event {
  type: string
  eventId: string
  data: MessageEventData
}

/** The idempotency-key prefix of sends made for a Chatwoot agent's reply (callback.ts). */
export const CHATWOOT_SEND_KEY = 'chatwoot:'

/** Chatwoot's `source_id` of a message the gateway created: how its own echo is recognised. */
export const sourceIdOf = (messageId: string, suffix = '') => `WAID:${messageId}${suffix}`

/**
 * The Chatwoot inbox as an outbox consumer: a session's message events, in order, each made
 * into Chatwoot's contact, conversation and message at most once (chatwoot_chats and
 * chatwoot_messages map each side's ids, written before Chatwoot is asked to create anything,
 * so a retry after a crash finds what the first attempt created instead of creating it twice).
 * Chatwoot unreachable or failing: not delivered, retried by the dispatcher (in order, for a day).
 */
export function createChatwootSink(ctx: GatewayContext): EventSink {
  return {
    async deliver(delivery, signal): Promise<WebhookResponse> {
      const row = ctx.db
        .select({ config: chatwootConfigs, url: webhookSubscriptions.url })
        .from(chatwootConfigs)
        .innerJoin(webhookSubscriptions, eq(webhookSubscriptions.id, chatwootConfigs.subscriptionId))
        .where(eq(chatwootConfigs.subscriptionId, delivery.webhookId))
        .get()
      if (!row) return { delivered: true, statusCode: 204 } // turned off meanwhile
      const event = JSON.parse(delivery.body) as Event
      const client = clientFor(ctx, row.config, row.url, signal)
      try {
        await mirror(ctx, client, row.config, event)
        noteError(ctx, row.config, null)
        return { delivered: true, statusCode: 200 }
      } catch (error) {
        if (!(error instanceof ChatwootError)) throw error
        noteError(ctx, row.config, error.message)
        if (refusedOutright(error)) {
          // Retrying cannot change Chatwoot's mind; holding the stream a day for it would hold every later message.
          ctx.logger.warn(
            { sessionId: row.config.sessionId, eventId: event.eventId, type: event.type, status: error.status },
            `chatwoot refused an event for good: ${error.message}`,
          )
          return { delivered: true, statusCode: error.status }
        }
        return { delivered: false, statusCode: error.status || null, error: error.message.slice(0, 200) }
      }
    },
  }
}

/** A 4xx that says the request itself is wrong (not the token, not "later"): skipped, not retried. */
const refusedOutright = (error: ChatwootError) =>
  error.status >= 400 && error.status < 500 && ![401, 403, 404, 408, 429].includes(error.status)

function noteError(ctx: GatewayContext, config: ChatwootConfig, message: string | null) {
  if (config.lastError === message) return
  ctx.db
    .update(chatwootConfigs)
    .set({ lastError: message, lastErrorAt: message ? ctx.clock.now() : null })
    .where(eq(chatwootConfigs.sessionId, config.sessionId))
    .run()
}

async function mirror(ctx: GatewayContext, client: ChatwootClient, config: ChatwootConfig, event: Event) {
  const { data } = event
  // Statuses are no conversation (WhatsApp shows them apart); Chatwoot would refuse their "number".
  if (data.phone === STATUS_CHAT) return
  const group = data.phone?.endsWith('@g.us') ? data.phone : null
  if (group && config.ignoreGroups) return
  const mapped = mappingOf(ctx, config.sessionId, data.messageId)
  switch (event.type) {
    case 'message.received':
    case 'message.status':
      if (mapped?.chatwootMessageId) return
      if (event.type === 'message.status' && sentFromChatwoot(ctx, config.sessionId, data.messageId)) return
      return create(ctx, client, config, event, { group, waId: data.messageId, sourceId: sourceIdOf(data.messageId) })
    case 'message.deleted':
      if (mapped?.chatwootMessageId) {
        await client.deleteMessage(mapped.conversationId, mapped.chatwootMessageId).catch(ignoreGone)
      }
      return
    case 'message.edited':
      if (!mapped?.chatwootMessageId) return
      return create(ctx, client, config, event, {
        group,
        waId: `${data.messageId}#${event.eventId}`,
        sourceId: sourceIdOf(data.messageId, `:edit:${event.eventId}`),
        prefix: '✏️ Edited:',
      })
    case 'message.reaction':
      return create(ctx, client, config, event, {
        group,
        waId: `${data.messageId}#${event.eventId}`,
        sourceId: sourceIdOf(data.messageId, `:reaction:${event.eventId}`),
        text: data.removed ? 'Removed a reaction' : `Reacted ${data.emoji}`,
      })
  }
}

const ignoreGone = (error: unknown) => {
  if (!(error instanceof ChatwootError) || error.status !== 404) throw error
}

/** An outbound message an agent's reply made (sent under a `chatwoot:` Idempotency-Key): Chatwoot has it already. */
function sentFromChatwoot(ctx: GatewayContext, sessionId: string, messageId: string): boolean {
  const row = ctx.db
    .select({ key: idempotencyKeys.key })
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.sessionId, sessionId),
        eq(idempotencyKeys.messageId, messageId),
        like(idempotencyKeys.key, `${CHATWOOT_SEND_KEY}%`),
      ),
    )
    .get()
  return row !== undefined
}

export function mappingOf(ctx: GatewayContext, sessionId: string, waMessageId: string) {
  return ctx.db
    .select()
    .from(chatwootMessages)
    .where(and(eq(chatwootMessages.sessionId, sessionId), eq(chatwootMessages.waMessageId, waMessageId)))
    .get()
}

/** Marks the WhatsApp side before Chatwoot creates it; answers whether an earlier attempt may have. */
function markAttempt(ctx: GatewayContext, sessionId: string, waMessageId: string, conversationId: number) {
  const earlier = mappingOf(ctx, sessionId, waMessageId)
  if (earlier) return { earlier: true }
  ctx.db
    .insert(chatwootMessages)
    .values({ sessionId, waMessageId, chatwootMessageId: null, conversationId, createdAt: ctx.clock.now() })
    .run()
  return { earlier: false }
}

function mapped(
  ctx: GatewayContext,
  sessionId: string,
  waMessageId: string,
  chatwootMessageId: number,
  conversationId: number,
) {
  ctx.db
    .update(chatwootMessages)
    .set({ chatwootMessageId, conversationId })
    .where(and(eq(chatwootMessages.sessionId, sessionId), eq(chatwootMessages.waMessageId, waMessageId)))
    .run()
}

async function create(
  ctx: GatewayContext,
  client: ChatwootClient,
  config: ChatwootConfig,
  event: Event,
  what: { group: string | null; waId: string; sourceId: string; prefix?: string; text?: string },
) {
  const { data } = event
  const sessionId = config.sessionId
  const chat = chatOf(ctx, sessionId, data, what.group)
  const { conversationId } = await ensureConversation(ctx, client, config, chat)
  const { earlier } = markAttempt(ctx, sessionId, what.waId, conversationId)
  if (earlier) {
    // An attempt that may have reached Chatwoot before the process stopped: adopt what it made.
    const found = (await client.recentMessages(conversationId)).find((m) => m.source_id === what.sourceId)
    if (found) return mapped(ctx, sessionId, what.waId, found.id, conversationId)
  }
  const incoming = event.type === 'message.reaction' ? !data.fromMe : data.direction === 'inbound'
  const sender = what.group && incoming ? senderName(ctx, sessionId, data) : undefined
  const attachments = event.type === 'message.received' && !what.text ? await attachmentsOf(ctx, sessionId, data) : []
  const body = what.text ?? renderContent(data.type, data.content, { sender, attached: attachments.length > 0 })
  const content = what.prefix ? `${what.prefix} ${body}` : body
  const id = await client.createMessage(conversationId, { content, incoming, sourceId: what.sourceId, attachments })
  mapped(ctx, sessionId, what.waId, id, conversationId)
}

function chatOf(ctx: GatewayContext, sessionId: string, data: MessageEventData, group: string | null): ChatRef {
  if (group) {
    const info = storedGroup(ctx.db, sessionId, group)
    return { phone: null, lid: null, groupJid: group, name: info?.subject || group }
  }
  const name = pushNameOf(ctx, sessionId, { phone: data.phone, lid: bareLid(data.lid) })
  return {
    phone: data.phone,
    lid: data.lid,
    groupJid: null,
    name: name ?? (data.phone ? `+${data.phone}` : (data.lid ?? 'WhatsApp')),
  }
}

const bareLid = (lid: string | null) => lid?.replace(/@lid$/, '') ?? null

function senderName(ctx: GatewayContext, sessionId: string, data: MessageEventData): string {
  const who = data.participant ?? ''
  const phone = /^\d+$/.test(who) ? who : null
  const name = pushNameOf(ctx, sessionId, { phone, lid: phone ? null : bareLid(who) })
  return name ?? (phone ? `+${phone}` : who || 'Someone')
}

/** A received file, read from the gateway (its store, or WhatsApp) to go to Chatwoot as an attachment. */
async function attachmentsOf(ctx: GatewayContext, sessionId: string, data: MessageEventData): Promise<Attachment[]> {
  const media = data.content.media
  if (!media || media.size > MAX_ATTACHMENT_BYTES) return []
  const record = findRecord(ctx, sessionId, data.messageId)
  if (!record) return []
  try {
    const stream = await recordMedia(ctx, record).open()
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer())
    const extension = media.mimetype.split('/')[1]?.split(';')[0] ?? 'bin'
    return [{ fileName: media.fileName ?? `${data.type}.${extension}`, mimeType: media.mimetype, bytes }]
  } catch (error) {
    // Expired at WhatsApp, or the store failing: the message goes without its file, saying so.
    ctx.logger.warn({ err: error, sessionId, messageId: data.messageId }, 'chatwoot: received file not attached')
    return []
  }
}
