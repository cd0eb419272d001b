import type { Context } from 'hono'
import { GatewayError } from '../errors'
import type { ByteRange } from '../media/store'
import type { MediaFile } from '../services/media/serve'

/**
 * The answer for a received file, with the HTTP of downloads: ETag (its SHA-256) and
 * If-None-Match (304), one Range (206, If-Range honoured; several ranges get the whole file, as
 * RFC 9110 allows), a Content-Disposition naming it, and headers that keep a browser from
 * running what a sender labelled text/html (attachment, nosniff, a sandboxing CSP).
 */
export async function mediaResponse(c: Context, file: MediaFile, cacheSeconds: number): Promise<Response> {
  const etag = `"${file.media.sha256}"`
  const headers: Record<string, string> = {
    etag,
    'cache-control': `private, max-age=${cacheSeconds}`,
    'accept-ranges': 'bytes',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
  }
  if (matchesEtag(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers)
  const size = file.media.size
  const ifRange = c.req.header('if-range')
  const range = ifRange === undefined || ifRange === etag ? parseRange(c.req.header('range'), size) : undefined
  if (range === 'unsatisfiable')
    throw new GatewayError(
      'range_not_satisfiable',
      `The range is outside the file (${size} bytes)`,
      {},
      {
        'Content-Range': `bytes */${size}`,
      },
    )
  const body = await file.open(range)
  Object.assign(headers, {
    'content-type': safeContentType(file.media.mimetype),
    'content-disposition': contentDisposition(fileNameOf(file)),
  })
  if (!range) return c.body(body, 200, { ...headers, 'content-length': String(size) })
  return c.body(body, 206, {
    ...headers,
    'content-length': String(range.end - range.start + 1),
    'content-range': `bytes ${range.start}-${range.end}/${size}`,
  })
}

const matchesEtag = (header: string | undefined, etag: string) =>
  header?.split(',').some((tag) => tag.trim() === '*' || tag.trim().replace(/^W\//, '') === etag) === true

/**
 * Pure: one `bytes=` range of a `size`-byte file (`a-b`, `a-`, `-n`), clamped to the file;
 * undefined when there is none to honour (absent, malformed, several); unsatisfiable when it
 * starts past the end.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (!header || header.length > 100) return undefined
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!match || (match[1] === '' && match[2] === '')) return undefined
  const [, from, to] = match
  if (from === '') {
    const suffix = Number(to)
    if (suffix === 0 || size === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(from)
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1)
  if (start >= size) return 'unsatisfiable'
  if (end < start) return undefined
  return { start, end }
}

/** The sender's mimetype when it is one (`type/subtype`, parameters allowed), else octet-stream. */
export function safeContentType(mimetype: string): string {
  const token = '[A-Za-z0-9!#$&^_.+-]+'
  const valid = new RegExp(`^${token}/${token}(\\s*;\\s*${token}=(${token}|"[^"\\\\\\r\\n]*"))*$`)
  return mimetype.length <= 200 && valid.test(mimetype) ? mimetype : 'application/octet-stream'
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'application/pdf': 'pdf',
}

/** The sender's file name, else one made from the message id and the type. */
function fileNameOf(file: MediaFile): string {
  if (file.media.fileName) return file.media.fileName
  const base = file.messageId.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 64) || 'file'
  const extension = EXTENSIONS[file.media.mimetype.split(';')[0]!.trim().toLowerCase()]
  return extension ? `${base}.${extension}` : base
}

/**
 * Pure: `attachment` with the name twice (RFC 6266): an ASCII fallback with anything unsafe
 * replaced, and the UTF-8 name percent-encoded. Path parts, quotes, control and bidi characters
 * never survive.
 */
export function contentDisposition(name: string): string {
  const cleaned =
    name
      .split(/[/\\]/)
      .pop()!
      .slice(0, 1000)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
      .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069"]/g, '')
      // lone surrogates (which encodeURIComponent refuses) go too; the cut is by code point
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
      .trim()
      .match(/[\s\S]/gu)
      ?.slice(0, 200)
      .join('') || 'file'
  const ascii = cleaned.replace(/[^\x20-\x7e]/g, '_').replace(/[%;\\]/g, '_')
  const encoded = encodeURIComponent(cleaned).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  )
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`
}
