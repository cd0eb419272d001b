import { z } from 'zod'
import { EXAMPLE_PHONE, EXAMPLE_SESSION_ID } from './examples'
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

export type ChatReadInput = z.infer<typeof ChatReadBody>
export type PresenceInput = z.infer<typeof PresenceBody>
