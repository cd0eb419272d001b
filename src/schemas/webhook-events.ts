import { z } from 'zod'
import { historySyncTypes, messageSources, messageStatuses } from '../db/schema'
import { messageTypes } from '../shared/message-types'
import { SessionStatusSchema } from './session'
import { isMessageEvent, type WebhookEventType, webhookEventTypes } from '../shared/event-types'
import { MessageContentSchema, messageParties } from './message-record'
import { pollContentFields } from './poll'

/**
 * The webhook event catalogue: the single source of what each event's `data` holds. The
 * services build payloads typed from these schemas, and the OpenAPI document's `webhooks`
 * section is drawn from them. No event ever carries a credential or a message's raw proto.
 */

const SessionStatusData = z
  .object({
    status: SessionStatusSchema,
    previousStatus: SessionStatusSchema.nullable().meta({ description: 'null when the session was just created.' }),
    statusReason: z.string().nullable().meta({ description: 'Short machine word, e.g. qr_timeout, device_removed.' }),
    number: z.string().nullable().meta({ description: 'The linked account’s number once paired.' }),
  })
  .meta({ id: 'SessionStatusEventData' })

const SessionQrData = z
  .object({ qr: z.string().meta({ description: 'The new QR payload to render; replaced every 20 to 60 s.' }) })
  .meta({ id: 'SessionQrEventData' })

const messageBase = {
  messageId: z.string().meta({ description: 'WhatsApp’s message id, as in send responses, quoteId, edit and delete.' }),
  direction: z.enum(['inbound', 'outbound']),
  source: z.enum(messageSources).nullable().meta({
    description:
      'Outbound: `api` (sent through this gateway) or `phone` (from the account’s own WhatsApp); null for inbound.',
  }),
  ...messageParties,
  type: z.enum(messageTypes),
  content: MessageContentSchema.meta({ description: 'A summary of what the message says; never media bytes or keys.' }),
  quoteId: z.string().nullable(),
}

const receivedFields = {
  ...messageBase,
  sentAt: z.iso.datetime().meta({ description: 'When the sender sent it.' }),
  downloadUrl: z.url().optional().meta({
    description:
      'Messages with a file (content.media): a URL of the gateway serving it with no API key, signed and good for MEDIA_URL_TTL (1 h) from the event; 403 once expired. GET /v1/message/{messageId}/media serves it any time.',
  }),
}

const MessageReceivedData = z.object(receivedFields).meta({ id: 'MessageReceivedEventData' })

const StatusReceivedData = z.object(receivedFields).meta({
  id: 'StatusReceivedEventData',
  description:
    'A record of the chat `status@broadcast` (phone), the poster as participant; a file downloads as any message’s.',
})

const MessageStatusData = z
  .object({
    ...messageBase,
    status: z.enum(messageStatuses),
    statusReason: z.string().nullable(),
  })
  .meta({ id: 'MessageStatusEventData' })

const MessageEditedData = z
  .object({ ...messageBase, editedAt: z.iso.datetime() })
  .meta({ id: 'MessageEditedEventData' })

const MessageDeletedData = z
  .object({
    ...messageBase,
    reason: z.string().nullable().meta({ description: 'deleted_by_client, revoked, revoked_by_sender.' }),
  })
  .meta({ id: 'MessageDeletedEventData' })

const chatOf = { phone: messageBase.phone, lid: messageBase.lid }
const lidForm = z.string().nullable().meta({ description: '`<digits>@lid`, when WhatsApp gave it.' })

const MessagePollVoteData = z
  .object({
    messageId: z.string().meta({ description: 'The poll’s messageId (a poll this session sent).' }),
    ...chatOf,
    voter: z.string().meta({ description: 'As the tally names the voter: the number, else `<digits>@lid`.' }),
    voterPhone: z.string().nullable(),
    voterLid: lidForm,
    fromMe: z.boolean().meta({ description: 'The account voted itself (from its phone or another linked device).' }),
    selectedOptions: z.array(z.string()).meta({
      description: 'The options the voter picks now, in the poll’s order; [] when they took their vote back.',
    }),
    votedAt: z.iso.datetime().meta({ description: 'When the voter’s phone cast it.' }),
    votes: pollContentFields.votes.unwrap().meta({ description: 'The poll’s tally after this vote.' }),
  })
  .meta({ id: 'MessagePollVoteEventData' })

const MessageReactionData = z
  .object({
    messageId: z.string().meta({ description: 'The reacted message’s messageId.' }),
    ...chatOf,
    participant: messageBase.participant.meta({ description: 'Groups: who wrote the reacted message, when recorded.' }),
    from: z.string().meta({ description: 'Who reacted: the number, else `<digits>@lid`.' }),
    fromPhone: z.string().nullable(),
    fromLid: lidForm,
    fromMe: z
      .boolean()
      .meta({ description: 'This session reacted (through the API, its phone or another linked device).' }),
    emoji: z.string().meta({ description: 'The emoji; "" when the reaction was removed.' }),
    removed: z.boolean(),
    reactedAt: z.iso.datetime(),
    recorded: z.boolean().meta({
      description: 'Whether the session has a record of the reacted message (then its content.reactions changed).',
    }),
  })
  .meta({ id: 'MessageReactionEventData' })

const CallReceivedData = z
  .object({
    callId: z.string(),
    from: z.string().meta({ description: 'The caller as WhatsApp addressed it (a jid).' }),
    isVideo: z.boolean(),
    rejected: z.boolean().meta({ description: 'true when the session rejected it by itself (autoRejectCalls).' }),
  })
  .meta({ id: 'CallReceivedEventData' })

const PresenceUpdateData = z
  .object({
    phone: z.string().nullable().meta({ description: 'Their number (digits), where the session knows it.' }),
    lid: z.string().nullable().meta({ description: 'Their LID (`<digits>@lid`), when WhatsApp named them by it.' }),
    group: z
      .string()
      .nullable()
      .meta({ description: 'The group (`…@g.us`) they type or record in; null for a 1:1 chat or their online state.' }),
    state: z.enum(['available', 'unavailable', 'composing', 'recording', 'paused']).meta({
      description:
        'available / unavailable: online or not; composing: typing; recording: recording a voice message; paused: stopped typing or recording.',
    }),
    lastSeen: z.iso
      .datetime()
      .nullable()
      .meta({ description: 'With unavailable: when they were last online, where their privacy shows it.' }),
  })
  .meta({ id: 'PresenceUpdateEventData' })

const GroupActor = z.object({ phone: z.string().nullable(), lid: z.string().nullable() }).nullable().meta({
  id: 'GroupActor',
  description:
    'Who did it: phone (digits) and lid (`<digits>@lid`), each where WhatsApp revealed it; null when WhatsApp did not say.',
})

const GroupJoinedData = z
  .object({
    groupId: z.string(),
    subject: z.string(),
    reason: z.enum(['created', 'added', 'invite']).meta({
      description: 'created by the session, added by someone (by), or joined with an invite link.',
    }),
    by: GroupActor,
  })
  .meta({ id: 'GroupJoinedEventData' })

const GroupLeftData = z
  .object({
    groupId: z.string(),
    reason: z
      .enum(['left', 'removed'])
      .meta({ description: 'left by the session itself, or removed by someone (by).' }),
    by: GroupActor,
  })
  .meta({ id: 'GroupLeftEventData' })

const GroupUpdatedData = z
  .object({
    groupId: z.string(),
    subject: z.string().optional(),
    description: z.string().nullable().optional().meta({ description: 'null: deleted.' }),
    announce: z.boolean().optional(),
    restrict: z.boolean().optional(),
    by: GroupActor,
  })
  .meta({ id: 'GroupUpdatedEventData', description: 'Only the fields that changed are present.' })

const GroupParticipantsData = z
  .object({
    groupId: z.string(),
    action: z.enum(['added', 'removed', 'promoted', 'demoted']),
    participants: z.array(z.object({ phone: z.string().nullable(), lid: z.string().nullable() })).meta({
      description: 'Never the session’s own account: its own joins and leaves are group.joined / group.left.',
    }),
    reason: z.string().nullable().meta({ description: 'added: invite when they joined with the invite link.' }),
    by: GroupActor,
  })
  .meta({ id: 'GroupParticipantsEventData' })

const historyCounts = {
  chats: z.number().int().meta({ description: 'Chats the history named (their names and states are kept).' }),
  messages: z.number().int().meta({ description: 'Messages stored, with source "history".' }),
  contacts: z.number().int().meta({ description: 'Push names stored.' }),
  skipped: z.number().int().meta({
    description: 'Messages left out: past maxMessages, older than the days asked for, or already stored.',
  }),
}

const HistoryProgressData = z
  .object({
    syncType: z.enum(historySyncTypes).meta({ description: 'WhatsApp’s kind of chunk.' }),
    chunk: z.number().int().meta({ description: 'The chunk’s order within its kind, from WhatsApp.' }),
    progress: z.number().int().min(0).max(100).meta({ description: 'WhatsApp’s percentage of the whole sync.' }),
    state: z.enum(['done', 'cut_off', 'expired']).meta({
      description:
        'done; cut_off: stopped at its budget (HISTORY_CHUNK_MAX_BYTES inflated) or unreadable, what came before is kept; expired: WhatsApp no longer had it.',
    }),
    stateReason: z.string().nullable(),
    chunkCounts: z.object(historyCounts).meta({ description: 'What this chunk stored.' }),
    ...historyCounts,
  })
  .meta({ id: 'HistoryProgressEventData', description: 'One history chunk was read; the counts are totals so far.' })

const HistorySyncedData = z
  .object({
    ...historyCounts,
    chunks: z.number().int(),
    incompleteChunks: z.number().int().meta({ description: 'Chunks cut off or expired.' }),
    durationMs: z.number().int().meta({ description: 'From the first chunk announced to the last one read.' }),
  })
  .meta({ id: 'HistorySyncedEventData', description: 'The history import of this linking ended; sent once.' })

const ChannelMessageData = z
  .object({
    channelId: z.string().meta({ description: 'The channel, `<digits>@newsletter`.' }),
    serverId: z.number().int().meta({ description: 'The post’s number in its channel, as WhatsApp counts them.' }),
    messageId: z.string(),
    type: z.enum(messageTypes),
    content: MessageContentSchema,
    postedAt: z.iso.datetime(),
  })
  .meta({ id: 'ChannelMessageEventData' })

const ChannelUpdatedData = z
  .object({
    channelId: z.string().meta({ description: 'The channel, `<digits>@newsletter`.' }),
    name: z.string().optional(),
    description: z.string().optional(),
  })
  .meta({ id: 'ChannelUpdatedEventData', description: 'Only the fields that changed are present.' })
const LabelUpsertedData = z
  .object({
    labelId: z.string(),
    name: z.string(),
    color: z.number().int().meta({ description: 'Palette index, 0–19.' }),
    predefinedId: z.string().nullable(),
  })
  .meta({ id: 'LabelUpsertedEventData' })

const LabelDeletedData = z.object({ labelId: z.string() }).meta({ id: 'LabelDeletedEventData' })

const LabelAssociationData = z
  .object({
    labelId: z.string(),
    action: z.enum(['added', 'removed']),
    chat: z.string().meta({
      description: 'The chat, as the chat list names it: the number (digits), `<digits>@lid`, or the group id.',
    }),
    messageId: z.string().nullable().meta({ description: 'Set when the label went on or off a message of the chat.' }),
  })
  .meta({ id: 'LabelAssociationEventData' })

export const webhookEventData = {
  'session.status': SessionStatusData,
  'session.qr': SessionQrData,
  'message.received': MessageReceivedData,
  'message.status': MessageStatusData,
  'message.edited': MessageEditedData,
  'message.deleted': MessageDeletedData,
  'message.poll_vote': MessagePollVoteData,
  'message.reaction': MessageReactionData,
  'status.received': StatusReceivedData,
  'call.received': CallReceivedData,
  'presence.update': PresenceUpdateData,
  'group.joined': GroupJoinedData,
  'group.left': GroupLeftData,
  'group.updated': GroupUpdatedData,
  'group.participants': GroupParticipantsData,
  'history.progress': HistoryProgressData,
  'history.synced': HistorySyncedData,
  'channel.message': ChannelMessageData,
  'channel.updated': ChannelUpdatedData,
  'label.upserted': LabelUpsertedData,
  'label.deleted': LabelDeletedData,
  'label.association': LabelAssociationData,
} as const satisfies Record<WebhookEventType, z.ZodType>

export { isMessageEvent, webhookEventTypes, type WebhookEventType }
export type WebhookEventData<T extends WebhookEventType> = z.input<(typeof webhookEventData)[T]>

const descriptions: Record<WebhookEventType, string> = {
  'session.status': 'Every status change of the session.',
  'session.qr': 'Each new QR payload while the session is pairing.',
  'message.received': 'Someone sent the session a message (suppressed by webhookMessages: false).',
  'message.status':
    'A message the session sent was recorded (pending) or moved on: sent, delivered, read, played, failed (suppressed by webhookMessages: false).',
  'message.edited': 'A message was edited, by the session or by its sender (suppressed by webhookMessages: false).',
  'message.deleted': 'A message was deleted for everyone (suppressed by webhookMessages: false).',
  'message.poll_vote':
    'Someone voted on a poll this session sent, changed or took back their vote (suppressed by webhookMessages: false).',
  'message.reaction':
    'Someone reacted to a message of a session’s chat, or removed their reaction (suppressed by webhookMessages: false).',
  'status.received':
    'A contact posted a status (story) the session may see: text, image, video or voice (suppressed by webhookMessages: false).',
  'call.received': 'Someone called the session; rejected tells whether it was auto-rejected.',
  'presence.update':
    'Someone the session subscribed to (POST /v1/contact/{phone}/presence/subscribe) came online or went offline, or someone types or records in a chat with the session.',
  'group.joined': 'The session’s account is in a group it was not in: it created it, was added, or joined by link.',
  'group.left': 'The session’s account is no longer in a group: it left, or was removed.',
  'group.updated': 'A group’s subject, description or settings changed (by anyone, the session included).',
  'group.participants': 'People were added to, removed from, promoted or demoted in a group the account is in.',
  'history.progress':
    'A chunk of the phone’s history was read (sessions connected with history): what it stored and the totals so far; never one event per old message.',
  'history.synced': 'The history import of this linking ended: what it stored in all. Sent once per linking.',
  'channel.message':
    'A post arrived in a WhatsApp Channel the session follows or runs (not one this session sent, which is its send record; not suppressed by webhookMessages: false). Posts are not stored: GET /v1/channel/{channelId}/messages reads them from WhatsApp.',
  'channel.updated': 'A channel the session follows or runs changed its name or description.',
  'label.upserted':
    'A WhatsApp Business label was created or changed, on the phone or through the API (the same path: app-state sync).',
  'label.deleted':
    'A WhatsApp Business label was deleted, on the phone or through the API; its chats and messages lost it.',
  'label.association': 'A label went on or off a chat (messageId null) or a message, on the phone or through the API.',
}

/** The body POSTed for one event type: the envelope around that type's data. */
export function webhookEnvelope<T extends WebhookEventType>(type: T) {
  return z
    .object({
      type: z.literal(type),
      eventId: z.string().meta({ description: 'Also the webhook-id header; the same on every retry and replay.' }),
      timestamp: z.iso.datetime().meta({ description: 'When the event happened.' }),
      sessionId: z.string(),
      sequence: z
        .number()
        .int()
        .positive()
        .meta({ description: 'Per session, increasing by 1 with each event: receivers can order and spot gaps.' }),
      data: webhookEventData[type],
    })
    .meta({ id: `Webhook_${type.replace('.', '_')}`, description: descriptions[type] })
}

export const webhookDescriptions = descriptions
