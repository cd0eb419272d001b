import { SendContactBody } from '../../../../schemas/message'
import { SEND_ERRORS } from '../error-lists'
import { sendEndpoint } from './send-endpoint'

export const { route: sendContactRoute, endpoint: sendContactEndpoint } = sendEndpoint({
  kind: 'contact',
  operationId: 'sendContact',
  path: '/v1/message/contact',
  summary: 'Share contact cards',
  description:
    '1 to 10 people, each with a name, 1 to 5 phone numbers, and optionally an organization and an email, sent as vCards 3.0 the gateway builds (every value escaped).',
  body: SendContactBody,
  errors: SEND_ERRORS,
})
