import { z } from 'zod'
import { EXAMPLE_MESSAGE_ID, EXAMPLE_PHONE, EXAMPLE_SESSION_ID } from './examples'
import { chatAddress } from './phone'
import { atLeastOneOf } from './requirements'

/** WhatsApp Business keeps at most 20 labels per account (its five predefined ones included). */
export const MAX_LABELS = 20
/** A label's name, in characters (the gateway's bound: WhatsApp's own is not published). */
export const LABEL_NAME_MAX_CHARS = 100
/** WhatsApp's label palette: 20 colours, by index. */
export const LABEL_COLORS = 20

const sessionId = z.string().min(1).max(100)
const messageId = z.string().min(1).max(128)

const name = z
  .string()
  .trim()
  .min(1)
  .refine((value) => [...value].length <= LABEL_NAME_MAX_CHARS, {
    message: `must be at most ${LABEL_NAME_MAX_CHARS} characters`,
  })
  .refine((value) => !/\p{Cc}/u.test(value), { message: 'must not contain control characters' })
  .meta({ description: `1 to ${LABEL_NAME_MAX_CHARS} characters, trimmed; no control characters.` })

const color = z
  .number()
  .int()
  .min(0)
  .max(LABEL_COLORS - 1)
  .meta({ description: `An index into WhatsApp’s palette of ${LABEL_COLORS} label colours (0–${LABEL_COLORS - 1}).` })

export const LabelIdParam = z.object({
  labelId: z
    .string()
    .regex(/^\d{1,10}$/, 'is a label id: digits, as GET /v1/label/all lists them')
    .meta({ description: 'The label’s id, as GET /v1/label/all lists it.', example: '1' }),
})

export const LabelSessionQuery = z.strictObject({ sessionId })

export const CreateLabelBody = z
  .strictObject({ sessionId, name, color })
  .meta({ id: 'CreateLabelRequest', example: { sessionId: EXAMPLE_SESSION_ID, name: 'New customer', color: 3 } })

export const UpdateLabelBody = atLeastOneOf(
  z.strictObject({ sessionId, name: name.optional(), color: color.optional() }),
  ['name', 'color'],
).meta({ id: 'UpdateLabelRequest', example: { sessionId: EXAMPLE_SESSION_ID, name: 'Paid', color: 5 } })

export const LabelChatBody = z
  .strictObject({ sessionId, phone: chatAddress })
  .meta({ id: 'LabelChatRequest', example: { sessionId: EXAMPLE_SESSION_ID, phone: EXAMPLE_PHONE } })

export const LabelChatQuery = z.strictObject({ sessionId, phone: chatAddress })

export const LabelMessageBody = z
  .strictObject({ sessionId, messageId })
  .meta({ id: 'LabelMessageRequest', example: { sessionId: EXAMPLE_SESSION_ID, messageId: EXAMPLE_MESSAGE_ID } })

export const LabelMessageQuery = z.strictObject({ sessionId, messageId })

export const LabelSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    color: z
      .number()
      .int()
      .meta({ description: `Palette index, 0–${LABEL_COLORS - 1}.` }),
    predefinedId: z
      .string()
      .nullable()
      .meta({ description: 'Set for WhatsApp’s predefined labels (New customer, New order, …).' }),
  })
  .meta({ id: 'Label' })

/** A label as a chat or a message carries it. */
export const ChatLabelSchema = LabelSchema.pick({ id: true, name: true, color: true }).meta({ id: 'ChatLabel' })

export const LabelListResponse = z
  .object({
    sessionId: z.string(),
    labels: z.array(
      LabelSchema.extend({
        chats: z.array(z.string()).meta({
          description: 'The chats carrying it, as the chat list names them (digits, `<digits>@lid`, or a group id).',
        }),
        messages: z.array(z.object({ chatJid: z.string(), messageId: z.string() })),
      }),
    ),
  })
  .meta({ id: 'LabelList' })

export const LabelResponse = z.object({ sessionId: z.string(), label: LabelSchema }).meta({ id: 'LabelResult' })

export const LabelDeletedResponse = z
  .object({ sessionId: z.string(), labelId: z.string(), deleted: z.literal(true) })
  .meta({ id: 'LabelDeleted' })

export const LabelChatResponse = z
  .object({
    sessionId: z.string(),
    labelId: z.string(),
    phone: z.string().meta({ description: 'The chat, as sent.' }),
    labeled: z.boolean(),
  })
  .meta({ id: 'LabelChatResult' })

export const LabelMessageResponse = z
  .object({ sessionId: z.string(), labelId: z.string(), messageId: z.string(), labeled: z.boolean() })
  .meta({ id: 'LabelMessageResult' })

export type CreateLabelInput = z.infer<typeof CreateLabelBody>
export type UpdateLabelInput = z.infer<typeof UpdateLabelBody>
export type LabelChatInput = z.infer<typeof LabelChatBody>
export type LabelMessageInput = z.infer<typeof LabelMessageBody>
