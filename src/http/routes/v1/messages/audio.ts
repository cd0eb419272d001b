import { SendAudioBody } from '../../../../schemas/message'
import { MEDIA_SEND_ERRORS } from '../error-lists'
import { sendEndpoint } from './send-endpoint'

export const { route: sendAudioRoute, endpoint: sendAudioEndpoint } = sendEndpoint({
  kind: 'audio',
  operationId: 'sendAudio',
  path: '/v1/message/audio',
  summary: 'Send an audio file or a voice note',
  description:
    'mp3, ogg (vorbis or opus) or opus. With `ptt: true` it is converted to an OGG/Opus voice note with its length and waveform; otherwise sent as the file it is.',
  body: SendAudioBody,
  errors: MEDIA_SEND_ERRORS,
})
