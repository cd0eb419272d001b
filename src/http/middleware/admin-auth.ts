import { timingSafeEqual } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import { sha256 } from '../../crypto'
import type { AppEnv } from '../env'
import { bearerToken, unauthorized } from './bearer-token'

/**
 * `/v1/admin/*` takes only the operator's ADMIN_API_KEY as its bearer: a workspace's API key
 * or JWT is just another wrong credential here (401). Both sides are hashed first so the
 * comparison is constant-time whatever the presented length.
 */
export function adminAuth(expected: string): MiddlewareHandler<AppEnv> {
  const expectedDigest = sha256(expected)
  return async function adminAuth(c, next) {
    const token = bearerToken(c, '<ADMIN_API_KEY>')
    if (!timingSafeEqual(sha256(token), expectedDigest)) throw unauthorized('Invalid admin API key')
    await next()
  }
}
