import { z } from 'zod'
import { EXAMPLE_MESSAGE_ID } from './examples'
import { eitherRequired } from './requirements'
import { addressed, messageId, PHONE, to, withPhone } from './send-fields'

/** The message to forward is named by the path: a record of this session, either direction. */
export const ForwardMessageParams = z.object({
  messageId: messageId.meta({ example: EXAMPLE_MESSAGE_ID }),
})

/** Where it goes: a number, a group (`<id>@g.us`) or a LID, as every send takes it. */
export const ForwardMessageBody = eitherRequired(z.strictObject(addressed), [PHONE])
  .transform(withPhone)
  .meta({ id: 'ForwardMessageRequest', example: { ...to } })

export type ForwardMessageInput = z.infer<typeof ForwardMessageBody> & { messageId: string }
