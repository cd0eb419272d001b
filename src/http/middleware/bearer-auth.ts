import type { MiddlewareHandler } from 'hono'
import { sha256Hex } from '../../crypto'
import type { GatewayContext } from '../../services/context'
import { ensureWorkspace } from '../../services/workspaces'
import type { AppEnv } from '../env'
import { bearerToken, unauthorized } from './bearer-token'
import { readJwtCredential } from './jwt-credential'

const looksLikeJwt = (token: string) => token.split('.').length === 3

/**
 * `Authorization: Bearer <credential>`: an API key issued by the CLI, or, when the operator
 * set JWT_SECRET, an HS256 JWT whose claims name the workspace (and optionally the plan).
 * Both resolve through the gateway's credential cache (no SQL built per request).
 */
export function bearerAuth(ctx: GatewayContext): MiddlewareHandler<AppEnv> {
  const { jwtSecret } = ctx.config
  const { credentials } = ctx
  return async function bearerAuth(c, next) {
    const token = bearerToken(c, '<API key>')
    const hash = sha256Hex(token)
    c.set('credentialHash', hash)

    if (jwtSecret && looksLikeJwt(token)) {
      const credential = await readJwtCredential(token, jwtSecret)
      if (!credential.ok) throw unauthorized(credential.reason)
      const workspace = credentials.workspaceNamed(credential.workspace) ?? ensureWorkspace(ctx, credential.workspace)
      c.set('workspace', workspace)
      c.set('plan', credential.plan ?? workspace.plan)
      c.set('authenticatedBy', { kind: 'jwt', expiresAtMs: credential.expiresAtMs })
      return next()
    }

    const workspace = credentials.verifyApiKey(token, hash)
    if (!workspace) throw unauthorized('Invalid or revoked API key')
    c.set('workspace', workspace)
    c.set('plan', workspace.plan)
    c.set('authenticatedBy', { kind: 'api_key', hash })
    return next()
  }
}
