import { PostTextStatusBody } from '../../../../schemas/status'
import { SEND_ERRORS } from '../error-lists'
import { sendEndpoint } from '../messages/send-endpoint'

export const { route: postTextStatusRoute, endpoint: postTextStatusEndpoint } = sendEndpoint({
  kind: 'text',
  operationId: 'postTextStatus',
  path: '/v1/status/text',
  tag: 'Status',
  summary: 'Post a text status',
  description:
    'A text status (story) on a coloured card, shown to the listed contacts or to every contact the session knows. Its record is in the chat `status@broadcast`; it is sent like any message (Idempotency-Key, `message.status` events).',
  body: PostTextStatusBody,
  errors: SEND_ERRORS,
})
