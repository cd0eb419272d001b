import { SendListBody } from '../../../../schemas/message'
import { SEND_ERRORS } from '../error-lists'
import { sendEndpoint } from './send-endpoint'

export const { route: sendListRoute, endpoint: sendListEndpoint } = sendEndpoint({
  kind: 'list',
  operationId: 'sendList',
  path: '/v1/message/list',
  summary: 'Send an interactive list (paid plans)',
  description: 'A native-flow list message: at most 5 rows across all sections. Paid plans only (403 plan_required).',
  body: SendListBody,
  errors: [...SEND_ERRORS, 'plan_required'],
})
