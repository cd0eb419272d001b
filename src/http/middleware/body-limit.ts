import type { MiddlewareHandler } from 'hono'
import { bodyLimit as honoBodyLimit } from 'hono/body-limit'
import { GatewayError } from '../../errors'
import type { AppEnv } from '../env'

/** Methods whose requests carry no body we read. */
const WITHOUT_BODY = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Rejects request bodies over the configured size with our 413 Error object. GET and HEAD are
 * passed by without asking for the body: on Node, touching `c.req.raw.body` makes
 * @hono/node-server build a full WHATWG Request, a large part of a small GET's cost.
 */
export function bodyLimit(maxBytes: number): MiddlewareHandler<AppEnv> {
  const limit = honoBodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new GatewayError('payload_too_large', `Request body exceeds ${maxBytes} bytes`, { limitBytes: maxBytes })
    },
  })
  return async function bodyLimit(c, next) {
    if (WITHOUT_BODY.has(c.req.method)) return next()
    return limit(c, next)
  }
}
