import { z } from 'zod'
import { EXAMPLE_PHONE, EXAMPLE_SESSION_ID } from './examples'
import { MessageRecordSchema } from './message-record'
import { ChatLabelSchema } from './label'
import { chatAddress } from './phone'

/** Ids a read request may name; a chat's whole unread backlog goes by leaving them out. */
export const MAX_READ_IDS = 100
/** Unread messages one request without `messageIds` marks read (the newest); `remaining` counts the rest. */
export const MAX_READ_BATCH = 1_000

const sessionId = z.string().min(1).max(100)
const messageId = z.string().min(1).max(128)

export const ChatReadBody = z
  .strictObject({
    sessionId,
    phone: chatAddress,
    messageIds: z
      .array(messageId)
      .min(1)
      .max(MAX_READ_IDS)
      .optional()
      .meta({
        description: `Inbound messages of this chat to mark read (1 to ${MAX_READ_IDS}); omitted: every unread inbound message of the chat (the newest ${MAX_READ_BATCH} per request).`,
      }),
  })
  .meta({ id: 'ChatReadRequest', example: { sessionId: EXAMPLE_SESSION_ID, phone: EXAMPLE_PHONE } })

export const ChatReadResponse = z
  .object({
    sessionId: z.string(),
    phone: z.string().meta({ description: 'The chat, as sent.' }),
    messageIds: z.array(z.string()).meta({ description: 'The messages read receipts were sent for.' }),
    remaining: z
      .number()
      .int()
      .meta({ description: 'Unread inbound messages of the chat left (more than one request’s batch).' }),
  })
  .meta({ id: 'ChatReadResult' })

export const chatStates = ['composing', 'recording', 'paused'] as const
export const accountStates = ['available', 'unavailable'] as const

export const PresenceBody = z
  .strictObject({
    sessionId,
    phone: chatAddress
      .optional()
      .meta({ description: 'The chat, for composing, recording and paused; absent for available and unavailable.' }),
    state: z.enum([...chatStates, ...accountStates]),
  })
  .superRefine((body, ctx) => {
    const forChat = (chatStates as readonly string[]).includes(body.state)
    if (forChat && !body.phone)
      ctx.addIssue({ code: 'custom', path: ['phone'], message: `is required: ${body.state} is shown in a chat` })
    if (!forChat && body.phone)
      ctx.addIssue({ code: 'custom', path: ['phone'], message: `must be absent: ${body.state} is the account's` })
  })
  .meta({ id: 'PresenceRequest', example: { sessionId: EXAMPLE_SESSION_ID, phone: EXAMPLE_PHONE, state: 'composing' } })

export const PresenceResponse = z
  .object({ sessionId: z.string(), phone: z.string().nullable(), state: z.enum([...chatStates, ...accountStates]) })
  .meta({ id: 'PresenceResult' })

export const ListChatsQuery = z.strictObject({
  sessionId,
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(200).optional().meta({ description: 'nextCursor of the previous page.' }),
})

export const ChatSummarySchema = z
  .object({
    chat: z.string().meta({
      description:
        'The chat as a send’s `phone` takes it: the number (digits), `<digits>@lid` while the number is unknown, or the group id (`…@g.us`).',
    }),
    phone: z.string().nullable().meta({ description: '1:1: the number (digits) where known; null for groups.' }),
    lid: z.string().nullable().meta({ description: '1:1: the LID (`<digits>@lid`) where known; null for groups.' }),
    isGroup: z.boolean(),
    name: z.string().nullable().meta({
      description:
        'The contact’s latest push name (from the messages they sent), or the group’s subject while the account is in it; else the name the phone’s history gave the chat (a saved contact name); null when unknown.',
    }),
    archived: z.boolean().meta({ description: 'Archived on the phone, as its history said at linking.' }),
    pinned: z.boolean().meta({ description: 'Pinned on the phone, as its history said at linking.' }),
    mutedUntil: z.iso.datetime().nullable().meta({
      description: 'Muted on the phone until then, as its history said at linking; null: not muted.',
    }),
    unreadCount: z.number().int().meta({
      description:
        'Inbound messages still `received`: not marked read by POST /v1/chat/read (nor deleted); history records are unread as the phone had them.',
    }),
    lastMessageAt: z.iso.datetime().meta({ description: 'When the newest record of the chat was created.' }),
    lastMessage: MessageRecordSchema,
    labels: z.array(ChatLabelSchema).meta({
      description:
        'The WhatsApp Business labels on the chat (empty for a personal account), as app-state sync last reported them.',
    }),
  })
  .meta({
    id: 'ChatSummary',
    description:
      'One conversation of the session: `lastMessage` is its newest record (deleted and failed ones too), as GET /v1/message/{messageId} answers it.',
  })

export const ChatListResponse = z
  .object({ chats: z.array(ChatSummarySchema), nextCursor: z.string().nullable() })
  .meta({ id: 'ChatList' })

export type ListChatsInput = z.infer<typeof ListChatsQuery>
export type ChatSummary = z.infer<typeof ChatSummarySchema>
export type ChatReadInput = z.infer<typeof ChatReadBody>
export type PresenceInput = z.infer<typeof PresenceBody>
