import type { MiddlewareHandler } from 'hono'
import { bodyLimit as honoBodyLimit } from 'hono/body-limit'
import { GatewayError } from '../../errors'
import type { AppEnv } from '../env'

/** Rejects request bodies over the configured size with our 413 Error object. */
export function bodyLimit(maxBytes: number): MiddlewareHandler<AppEnv> {
  return honoBodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new GatewayError('payload_too_large', `Request body exceeds ${maxBytes} bytes`, { limitBytes: maxBytes })
    },
  })
}
