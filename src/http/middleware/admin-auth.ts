import { timingSafeEqual } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import { sha256 } from '../../crypto'
import { GatewayError } from '../../errors'
import type { AppEnv } from '../env'

const unauthorized = (message: string) =>
  new GatewayError('unauthorized', message, {}, { 'WWW-Authenticate': 'Bearer' })

/**
 * `/v1/admin/*` takes only the operator's ADMIN_API_KEY as its bearer: a workspace's API key
 * or JWT is just another wrong credential here (401). Both sides are hashed first so the
 * comparison is constant-time whatever the presented length.
 */
export function adminAuth(expected: string): MiddlewareHandler<AppEnv> {
  const expectedDigest = sha256(expected)
  return async function adminAuth(c, next) {
    const header = c.req.header('authorization')
    if (!header) throw unauthorized('Missing Authorization header; send Authorization: Bearer <ADMIN_API_KEY>')
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
    if (!match) throw unauthorized('Authorization header must use the Bearer scheme')
    if (!timingSafeEqual(sha256(match[1]!), expectedDigest)) throw unauthorized('Invalid admin API key')
    await next()
  }
}
