import type { MiddlewareHandler } from 'hono'
import { sha256Hex } from '../../crypto'
import { GatewayError } from '../../errors'
import type { GatewayContext } from '../../services/context'
import { ensureWorkspace } from '../../services/workspaces'
import type { AppEnv } from '../env'
import { readJwtCredential } from './jwt-credential'

const looksLikeJwt = (token: string) => token.split('.').length === 3

/** Only a bearer failure asks for a bearer credential (RFC 6750); other 401s do not. */
const unauthorized = (message: string) =>
  new GatewayError('unauthorized', message, {}, { 'WWW-Authenticate': 'Bearer' })

/**
 * `Authorization: Bearer <credential>`: an API key issued by the CLI, or, when the operator
 * set JWT_SECRET, an HS256 JWT whose claims name the workspace (and optionally the plan).
 * Both resolve through the gateway's credential cache (no SQL built per request).
 */
export function bearerAuth(ctx: GatewayContext): MiddlewareHandler<AppEnv> {
  const { jwtSecret } = ctx.config
  const { credentials } = ctx
  return async function bearerAuth(c, next) {
    const header = c.req.header('authorization')
    if (!header) throw unauthorized('Missing Authorization header; send Authorization: Bearer <API key>')
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
    if (!match) throw unauthorized('Authorization header must use the Bearer scheme')
    const token = match[1]!
    const hash = sha256Hex(token)
    c.set('credentialHash', hash)

    if (jwtSecret && looksLikeJwt(token)) {
      const credential = await readJwtCredential(token, jwtSecret)
      if (!credential.ok) throw unauthorized(credential.reason)
      const workspace = credentials.workspaceNamed(credential.workspace) ?? ensureWorkspace(ctx, credential.workspace)
      c.set('workspace', workspace)
      c.set('plan', credential.plan ?? workspace.plan)
      return next()
    }

    const workspace = credentials.verifyApiKey(token, hash)
    if (!workspace) throw unauthorized('Invalid or revoked API key')
    c.set('workspace', workspace)
    c.set('plan', workspace.plan)
    return next()
  }
}
