import type { MiddlewareHandler } from 'hono'
import { readJsonBody } from '../json-body'

/** The methods whose JSON bodies the routes read. */
export const METHODS_WITH_JSON = ['POST', 'PUT', 'PATCH']

/**
 * Reads JSON request bodies before any route's validator does, so a non-UTF-8 charset (415)
 * and malformed JSON (400 naming the parser's reason) get their own answers. Hono caches the
 * parsed body for the validator. Register it for METHODS_WITH_JSON only.
 */
export function jsonBody(): MiddlewareHandler {
  return async function jsonBody(c, next) {
    await readJsonBody(c)
    await next()
  }
}
