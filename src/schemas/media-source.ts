import { z } from 'zod'
import { isDataUrl } from '../shared/data-url'

const MAX_URL_CHARS = 2048
const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}
/**
 * Where a send's media comes from: an http(s) URL the gateway fetches, or the file itself as a
 * base64 `data:` URL (bounded by BODY_LIMIT_BYTES; decoded and checked by the media source).
 */
export const mediaUrl = z
  .string()
  .refine((value) => isDataUrl(value) || (value.length <= MAX_URL_CHARS && isHttpUrl(value)), {
    error: `must be an http(s) URL (at most ${MAX_URL_CHARS} characters) or a data: URL (data:<type>;base64,<data>)`,
  })
  .meta({ format: 'uri' })
