import type { MiddlewareHandler } from 'hono'
import { bodyLimit as honoBodyLimit } from 'hono/body-limit'
import { GatewayError } from '../../errors'
import type { AppEnv } from '../env'

/**
 * The methods whose requests may carry a body we read. Register the body middlewares for these
 * only (`app.on(METHODS_WITH_BODY, …)`): a GET then never enters them, and every layer of
 * Hono's chain costs a small request about a microsecond.
 */
export const METHODS_WITH_BODY = ['POST', 'PUT', 'PATCH', 'DELETE']

/** Rejects request bodies over the configured size with our 413 Error object. */
export function bodyLimit(maxBytes: number): MiddlewareHandler<AppEnv> {
  return honoBodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new GatewayError('payload_too_large', `Request body exceeds ${maxBytes} bytes`, { limitBytes: maxBytes })
    },
  })
}
