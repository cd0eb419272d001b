import { createHash, timingSafeEqual } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import { GatewayError } from '../../errors'
import type { AppEnv } from '../env'

const digest = (value: string) => createHash('sha256').update(value).digest()

/**
 * When the operator sets a deployment key, every request must carry it in `x-api-key`.
 * Both sides are hashed first so the comparison is constant-time whatever their lengths.
 */
export function deploymentKey(expected: string): MiddlewareHandler<AppEnv> {
  const expectedDigest = digest(expected)
  return async function deploymentKey(c, next) {
    const presented = c.req.header('x-api-key')
    if (presented === undefined) throw new GatewayError('unauthorized', 'Missing x-api-key header')
    if (!timingSafeEqual(digest(presented), expectedDigest)) {
      throw new GatewayError('unauthorized', 'Invalid x-api-key header')
    }
    await next()
  }
}
