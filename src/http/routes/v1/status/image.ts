import { PostImageStatusBody } from '../../../../schemas/status'
import { MEDIA_SEND_ERRORS } from '../error-lists'
import { sendEndpoint } from '../messages/send-endpoint'

export const { route: postImageStatusRoute, endpoint: postImageStatusEndpoint } = sendEndpoint({
  kind: 'image',
  operationId: 'postImageStatus',
  path: '/v1/status/image',
  tag: 'Status',
  summary: 'Post an image status',
  description:
    'The gateway fetches imageUrl (size- and time-limited, private addresses refused) and posts it as a status to the listed contacts or to every contact the session knows.',
  body: PostImageStatusBody,
  errors: MEDIA_SEND_ERRORS,
})
