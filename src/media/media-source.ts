import { GatewayError } from '../errors'
import type { MediaField } from './port'
import { decodeDataUrl } from './data-url'
import { isDataUrl } from '../shared/data-url'
import type { MediaFetcher } from './fetcher'

/**
 * What a `data:` URL may declare for each field. The bytes are sniffed afterwards in any case
 * (a declared type is a claim, like a Content-Type header); a declaration that contradicts the
 * endpoint is refused at once, since the client said plainly it sent the wrong thing.
 */
const DECLARABLE: Record<MediaField, { accepts: (type: string) => boolean; takes: string }> = {
  imageUrl: { accepts: (t) => t.startsWith('image/'), takes: 'image/*' },
  stickerUrl: { accepts: (t) => t.startsWith('image/'), takes: 'image/*' },
  audioUrl: { accepts: (t) => t.startsWith('audio/') || t === 'application/ogg', takes: 'audio/*' },
  videoUrl: { accepts: (t) => t.startsWith('video/') || t === 'image/gif', takes: 'video/* or image/gif' },
  documentUrl: { accepts: () => true, takes: 'any type' },
  pictureUrl: { accepts: (t) => t.startsWith('image/'), takes: 'image/*' },
}

export type MediaLoader = (source: string, field: MediaField) => Promise<Uint8Array>

/**
 * The one home of "where media bytes come from": a client's http(s) URL through the guarded
 * fetcher, or a base64 `data:` URL decoded in place (already inside BODY_LIMIT_BYTES, and held
 * to MEDIA_MAX_BYTES like a download).
 */
export function createMediaLoader(fetcher: MediaFetcher, maxBytes: number): MediaLoader {
  return async (source, field) => {
    if (!isDataUrl(source)) return (await fetcher.fetch(source)).bytes
    const { declaredType, bytes } = decodeDataUrl(source, field, maxBytes)
    const rule = DECLARABLE[field]
    if (declaredType && !rule.accepts(declaredType)) {
      const reason = `it declares ${declaredType}; ${field} takes ${rule.takes}`
      throw new GatewayError('media_unavailable', `${field} cannot be used: ${reason}`, { field, reason })
    }
    return bytes
  }
}
