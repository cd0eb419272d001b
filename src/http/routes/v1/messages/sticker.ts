import { SendStickerBody } from '../../../../schemas/message'
import { MEDIA_SEND_ERRORS } from '../error-lists'
import { sendEndpoint } from './send-endpoint'

export const { route: sendStickerRoute, endpoint: sendStickerEndpoint } = sendEndpoint({
  kind: 'sticker',
  operationId: 'sendSticker',
  path: '/v1/message/sticker',
  summary: 'Send a sticker',
  description: 'A .webp or .gif image becomes a 512×512 WebP sticker; a GIF stays animated.',
  body: SendStickerBody,
  errors: MEDIA_SEND_ERRORS,
})
