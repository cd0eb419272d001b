import type { Context } from 'hono'
import { GatewayError } from '../../errors'

/** Only a bearer failure asks for a bearer credential (RFC 6750); other 401s do not. */
export const unauthorized = (message: string) =>
  new GatewayError('unauthorized', message, {}, { 'WWW-Authenticate': 'Bearer' })

/**
 * The credential of `Authorization: Bearer <credential>`, the one parse every bearer check
 * (workspace keys and JWTs, the admin key, the edge Worker's JWTs) uses; a missing header or
 * another scheme is a 401 naming what to send (`expected`, e.g. "<API key>").
 */
export function bearerToken(c: Context, expected: string): string {
  const header = c.req.header('authorization')
  if (!header) throw unauthorized(`Missing Authorization header; send Authorization: Bearer ${expected}`)
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  if (!match) throw unauthorized('Authorization header must use the Bearer scheme')
  return match[1]!
}
