import { z } from 'zod'
import { EXAMPLE_PHONE, EXAMPLE_SESSION_ID } from './examples'
import { chatAddress, type ChatAddress, sendAddress } from './phone'
import { alias, type AliasPair } from './requirements'

/** The fields every message request shares: the session, the chat, a quoted or named message. */

export const sessionId = z.string().min(1).max(100)
export const quoteId = z
  .string()
  .min(1)
  .max(128)
  .optional()
  .meta({ description: 'messageId of the message this one replies to.' })
export const messageId = z.string().min(1).max(128)

export const PHONE: AliasPair = ['phone', 'to']
/** Where every example send goes (see examples.ts). */
export const to = { sessionId: EXAMPLE_SESSION_ID, phone: EXAMPLE_PHONE }

export const addressed = {
  sessionId,
  phone: sendAddress.optional(),
  to: sendAddress.optional().meta(alias('phone')),
}

/** A chat, not a channel: edits, deletes and reactions name a message of one. */
const chatAddressed = {
  sessionId,
  phone: chatAddress.optional(),
  to: chatAddress.optional().meta(alias('phone')),
}

export const withPhone = <T extends { phone?: ChatAddress; to?: ChatAddress }>({ to, ...b }: T) => ({
  ...b,
  phone: (b.phone ?? to)!,
})

/** A request about one message of a chat (edit, delete, reaction). */
export const referenced = {
  ...chatAddressed,
  messageId: messageId.optional(),
  id: messageId.optional().meta(alias('messageId')),
}
export const REFERENCED: AliasPair[] = [PHONE, ['messageId', 'id']]

export const withPhoneAndMessageId = <
  T extends { phone?: ChatAddress; to?: ChatAddress; messageId?: string; id?: string },
>({
  to,
  id,
  ...b
}: T) => ({ ...b, phone: (b.phone ?? to)!, messageId: (b.messageId ?? id)! })
