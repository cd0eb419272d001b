import { timingSafeEqual } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import { sha256 } from '../../crypto'
import type { AppEnv } from '../env'
import { bearerToken, unauthorized } from './bearer-token'

/**
 * A route of the operator's own (the admin API, /metrics) takes one configured secret as its
 * bearer: any other credential is just a wrong one (401). Both sides are hashed first so the
 * comparison is constant-time whatever the presented length.
 */
export function operatorBearer(
  expected: string,
  names: { secret: string; invalid: string },
): MiddlewareHandler<AppEnv> {
  const expectedDigest = sha256(expected)
  return async function operatorBearer(c, next) {
    const token = bearerToken(c, names.secret)
    if (!timingSafeEqual(sha256(token), expectedDigest)) throw unauthorized(names.invalid)
    await next()
  }
}
