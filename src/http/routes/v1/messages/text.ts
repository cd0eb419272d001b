import { SendTextBody } from '../../../../schemas/message'
import { SEND_ERRORS } from '../error-lists'
import { sendEndpoint } from './send-endpoint'

export const { route: sendTextRoute, endpoint: sendTextEndpoint } = sendEndpoint({
  kind: 'text',
  operationId: 'sendText',
  path: '/v1/message/text',
  summary: 'Send a text message',
  description:
    'To a phone number, a group (`<id>@g.us`) or a LID. `to` and `text` are accepted for `phone` and `message`.',
  body: SendTextBody,
  errors: SEND_ERRORS,
})
