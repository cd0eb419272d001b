import { PostVideoStatusBody } from '../../../../schemas/status'
import { MEDIA_SEND_ERRORS } from '../error-lists'
import { sendEndpoint } from '../messages/send-endpoint'

export const { route: postVideoStatusRoute, endpoint: postVideoStatusEndpoint } = sendEndpoint({
  kind: 'video',
  operationId: 'postVideoStatus',
  path: '/v1/status/video',
  tag: 'Status',
  summary: 'Post a video status',
  description:
    'The gateway fetches videoUrl (size- and time-limited, private addresses refused), converts it to MP4 where needed and posts it as a status to the listed contacts or to every contact the session knows.',
  body: PostVideoStatusBody,
  errors: MEDIA_SEND_ERRORS,
})
