import type { Context, ErrorHandler, NotFoundHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { codeToStatus, GatewayError, type ErrorCode } from '../errors'
import type { Logger } from '../logger'
import { clip } from '../schemas/echo'
import { systemClock, type Clock } from '../clock'
import type { AppEnv } from './env'
import { errorHeaders } from './quota-headers'

/** Statuses Hono itself raises (HTTPException), mapped into our closed set of codes. */
const httpStatusToCode: Record<number, ErrorCode> = {
  400: 'validation_error',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  502: 'upstream_error',
  504: 'upstream_timeout',
}

/** A last cap on `message`: whatever a thrower put in it, an error body stays small. */
const MAX_MESSAGE_CHARS = 500

function errorBody(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
  return { error: code, message: clip(message, MAX_MESSAGE_CHARS), details }
}

/**
 * A refusal before the body was read (413, 401, 415, an unknown route) leaves it on the socket,
 * and the connection is dropped after the answer, under the next request of a client told
 * `keep-alive`. Saying `close` makes the client open a new connection instead, and tells the
 * runtime's server to linger over the unread rest before closing (`src/runtime/linger.ts`).
 */
const leavesBodyUnread = (c: Context, error: GatewayError) =>
  error.code === 'payload_too_large' || (c.req.raw.body !== null && !c.req.raw.bodyUsed)

function respond(c: Context, error: GatewayError, now: Date = new Date()) {
  const status = codeToStatus(error.code) as ContentfulStatusCode
  for (const [name, value] of Object.entries(errorHeaders(error, now))) c.header(name, value)
  if (leavesBodyUnread(c, error)) c.header('Connection', 'close')
  return c.json(errorBody(error.code, error.message, error.details), status)
}

/** What the handlers read of a request: its id (requestLog or hono/request-id set it). */
type WithRequestId = { Variables: Pick<AppEnv['Variables'], 'requestId'> }

/**
 * The single onError: our errors as they are, Hono's by status, anything else as an opaque 500.
 * Any app whose requests carry an id can use it (the gateway's, the edge Worker).
 */
export function errorHandler<E extends WithRequestId = AppEnv>(
  logger: Logger,
  clock: Clock = systemClock,
): ErrorHandler<E> {
  return (err, c) => {
    if (err instanceof GatewayError) return respond(c, err, clock.now())
    if (err instanceof HTTPException) {
      const code = httpStatusToCode[err.status] ?? 'internal_error'
      if (code === 'internal_error') logger.error({ err, requestId: c.get('requestId') }, 'unmapped HTTP exception')
      return respond(c, new GatewayError(code, err.message || 'Request failed'))
    }
    logger.error({ err, requestId: c.get('requestId'), path: c.req.path }, 'unhandled error')
    return respond(c, new GatewayError('internal_error', 'Internal error; the request id identifies it in the logs'))
  }
}

export const notFoundHandler: NotFoundHandler = (c) =>
  respond(c, new GatewayError('not_found', `No route for ${c.req.method} ${c.req.path}`))
