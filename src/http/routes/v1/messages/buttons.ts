import { SendButtonsBody } from '../../../../schemas/message'
import { SEND_ERRORS } from '../error-lists'
import { sendEndpoint } from './send-endpoint'

export const { route: sendButtonsRoute, endpoint: sendButtonsEndpoint } = sendEndpoint({
  kind: 'buttons',
  operationId: 'sendButtons',
  path: '/v1/message/buttons',
  summary: 'Send reply buttons (paid plans)',
  description:
    'Native-flow quick-reply buttons: at most 5. `text` is accepted for `message`, and for a button’s `buttonText`. Paid plans only (403 plan_required).',
  body: SendButtonsBody,
  errors: [...SEND_ERRORS, 'plan_required'],
})
