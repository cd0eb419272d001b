import { SendImageBody } from '../../../../schemas/message'
import { MEDIA_SEND_ERRORS } from '../error-lists'
import { sendEndpoint } from './send-endpoint'

export const { route: sendImageRoute, endpoint: sendImageEndpoint } = sendEndpoint({
  kind: 'image',
  operationId: 'sendImage',
  path: '/v1/message/image',
  summary: 'Send an image',
  description:
    'The gateway fetches imageUrl (size- and time-limited, private addresses refused) and sends it with its real type and dimensions.',
  body: SendImageBody,
  errors: MEDIA_SEND_ERRORS,
})
