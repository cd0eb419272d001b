import { timingSafeEqual } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import { sha256 } from '../../crypto'
import { GatewayError } from '../../errors'
import type { AppEnv } from '../env'

/**
 * When the operator sets a deployment key, every request must carry it in `x-api-key`.
 * Both sides are hashed first so the comparison is constant-time whatever their lengths.
 */
export function deploymentKey(expected: string): MiddlewareHandler<AppEnv> {
  const expectedDigest = sha256(expected)
  return async function deploymentKey(c, next) {
    const presented = c.req.header('x-api-key')
    if (presented === undefined) throw new GatewayError('unauthorized', 'Missing x-api-key header')
    if (!timingSafeEqual(sha256(presented), expectedDigest)) {
      throw new GatewayError('unauthorized', 'Invalid x-api-key header')
    }
    await next()
  }
}
