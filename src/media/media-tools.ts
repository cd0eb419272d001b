import type { GatewayConfig } from '../config'
import { GatewayError } from '../errors'
import type { Logger } from '../logger'
import type { MediaTools } from '../services/messages/media-tools'

/** Placeholder until the media layer lands: every media send is refused with a clear 422. */
export function createMediaTools(_config: GatewayConfig, _logger: Logger): MediaTools {
  const unavailable = async (): Promise<never> => {
    throw new GatewayError('media_unavailable', 'Media sending is not available yet')
  }
  return { fetch: unavailable, image: unavailable, audio: unavailable, voiceNote: unavailable, sticker: unavailable }
}
