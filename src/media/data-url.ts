import { GatewayError } from '../errors'
import { echo } from '../schemas/echo'
import { isDataUrl } from '../shared/data-url'

/** What a `data:` URL declares and holds. */
export interface DataUrl {
  /** The declared media type, lower-cased, parameters dropped; undefined when none was given. */
  declaredType?: string
  bytes: Uint8Array
}

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/
// Linear: one character class, no nesting. Padding only at the end.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/**
 * Decodes `data:<type>;base64,<data>` (RFC 2397) as a media source. Only base64 is taken: the
 * percent-encoded form carries binary badly and no client sends media that way. The decoded
 * size is known from the text's length before anything is decoded, so a source above
 * `maxBytes` is 413 without allocating for it. Every other fault is 422 with the reason.
 */
export function decodeDataUrl(source: string, field: string, maxBytes: number): DataUrl {
  const comma = source.indexOf(',')
  if (!isDataUrl(source) || comma < 0) throw refused(field, 'it is not a data: URL (data:<type>;base64,<data>)')
  const [type = '', ...params] = source.slice(5, comma).split(';')
  if (params.at(-1)?.toLowerCase() !== 'base64')
    throw refused(field, 'only base64 data: URLs are taken (data:<type>;base64,<data>)')
  const declaredType = type.trim().toLowerCase()
  if (declaredType !== '' && !MEDIA_TYPE.test(declaredType))
    throw refused(field, `its media type ${echo(declaredType)} is not a type/subtype`)

  const text = source.slice(comma + 1)
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0
  const size = Math.floor((text.length * 3) / 4) - padding
  if (size > maxBytes)
    throw new GatewayError(
      'payload_too_large',
      `${field} holds ${size} bytes; the limit is ${maxBytes} (MEDIA_MAX_BYTES)`,
      {
        field,
        limit: maxBytes,
      },
    )
  if (text.length === 0) throw refused(field, 'it holds no data')
  // Unpadded base64 is fine; a length of 4n+1 never is, and padding makes it a multiple of 4.
  if (!BASE64.test(text) || text.length % 4 === 1 || (padding > 0 && text.length % 4 !== 0)) {
    const bad = text.search(/[^A-Za-z0-9+/=]/)
    const where = bad >= 0 ? `a ${echo(text[bad])} at character ${bad + 1}` : 'wrong length or padding'
    throw refused(field, `its data is not valid base64 (${where})`)
  }
  const bytes = new Uint8Array(Buffer.from(text, 'base64'))
  return { ...(declaredType ? { declaredType } : {}), bytes }
}

function refused(field: string, reason: string): GatewayError {
  return new GatewayError('media_unavailable', `${field} cannot be used: ${reason}`, { field, reason })
}
