import { SendLocationBody } from '../../../../schemas/message'
import { SEND_ERRORS } from '../error-lists'
import { sendEndpoint } from './send-endpoint'

export const { route: sendLocationRoute, endpoint: sendLocationEndpoint } = sendEndpoint({
  kind: 'location',
  operationId: 'sendLocation',
  path: '/v1/message/location',
  summary: 'Share a location',
  description: 'Coordinates in degrees: latitude −90..90, longitude −180..180.',
  body: SendLocationBody,
  errors: SEND_ERRORS,
})
