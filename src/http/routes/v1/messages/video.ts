import { SendVideoBody } from '../../../../schemas/message'
import { MEDIA_SEND_ERRORS } from '../error-lists'
import { sendEndpoint } from './send-endpoint'

export const { route: sendVideoRoute, endpoint: sendVideoEndpoint } = sendEndpoint({
  kind: 'video',
  operationId: 'sendVideo',
  path: '/v1/message/video',
  summary: 'Send a video',
  description:
    'An MP4 (H.264, AAC or silent) is sent as it is, with its duration and a JPEG thumbnail; other videos (WebM, MOV, MKV…) and GIFs are converted to one (at most MEDIA_MAX_SECONDS long, 4K). `gifPlayback: true` shows it as a looping GIF. Needs ffmpeg: 422 on the Cloudflare Workers deployment.',
  body: SendVideoBody,
  errors: MEDIA_SEND_ERRORS,
})
