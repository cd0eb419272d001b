import { SendPollBody } from '../../../../schemas/poll'
import { SEND_ERRORS } from '../error-lists'
import { sendEndpoint } from './send-endpoint'

export const { route: sendPollRoute, endpoint: sendPollEndpoint } = sendEndpoint({
  kind: 'poll',
  operationId: 'sendPoll',
  path: '/v1/message/poll',
  summary: 'Send a poll',
  description:
    'A question with 2 to 12 different options (each 1–100 characters) and how many one person may pick (`selectableCount`, 1 by default). Votes arrive as `message.poll_vote` events; the record’s `content.votes` holds the current tally.',
  body: SendPollBody,
  errors: SEND_ERRORS,
})
