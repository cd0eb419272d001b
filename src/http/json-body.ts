import type { Context } from 'hono'
import { GatewayError } from '../errors'
import { clip, echo } from '../schemas/echo'
import { validationError } from '../services/validation-error'

export const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i
const UTF8 = /^utf-?8$/i

export const mediaType = (c: Context) => (c.req.header('content-type') ?? '').split(';')[0]!.trim()

/** The charset parameter of Content-Type, unquoted, if any. */
function charsetOf(contentType: string): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType)
  return match ? (match[1] ?? match[2]) : undefined
}

/** The 415 for a body that is not declared JSON: the same words whether the type is wrong or absent. */
export function notJson(type: string): GatewayError {
  return new GatewayError(
    'unsupported_media_type',
    `Request bodies are JSON: send Content-Type: application/json (got ${type ? echo(type) : 'none'})`,
    { contentType: type ? clip(type) : null },
  )
}

/**
 * V8 quotes the start of the text it failed on ('Unexpected token 'x', "{"a": oops"... is not
 * valid JSON'); the reason and position are what helps, the quoted body is not.
 */
function jsonErrorReason(error: unknown): string {
  const message = error instanceof Error ? error.message : 'unreadable body'
  return clip(message.replace(/, (\.\.\.)?".*"(\.\.\.)? is not valid JSON$/s, ''), 100)
}

/**
 * Reads a JSON body before zod-validator does, so the failures it would blur get their own
 * answer: a body that is not JSON (415), a non-UTF-8 charset (415: we would decode it as UTF-8
 * and store mojibake) and malformed JSON (400 naming the parser's reason). The parsed body stays cached for the validator.
 */
export async function readJsonBody(c: Context): Promise<void> {
  const type = mediaType(c)
  // No Content-Type: refused only when bytes came (bodyLimit capped them); a POST with no body
  // (a restart, curl -X POST) is fine, and a route that needs a body says so in its validator.
  if (!type) {
    if (c.req.raw.body !== null && (await c.req.arrayBuffer()).byteLength > 0) throw notJson(type)
    return
  }
  if (!JSON_MEDIA_TYPE.test(type)) throw notJson(type)
  const charset = charsetOf(c.req.header('content-type') ?? '')
  if (charset !== undefined && !UTF8.test(charset)) {
    throw new GatewayError(
      'unsupported_media_type',
      `JSON bodies must be UTF-8; got charset ${echo(charset)}. Send Content-Type: application/json`,
      { charset: clip(charset) },
    )
  }
  try {
    await c.req.json()
  } catch (error) {
    throw validationError(
      [{ path: '(body)', message: `invalid JSON: ${jsonErrorReason(error)}` }],
      'The request body is not valid JSON',
    )
  }
}
