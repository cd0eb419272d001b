import type { MiddlewareHandler } from 'hono'
import type { PlanName } from '../../config'
import { sha256Hex } from '../../crypto'
import type { Workspace } from '../../db/schema'
import type { GatewayContext } from '../../services/context'
import { ensureWorkspace } from '../../services/workspaces'
import type { AppEnv } from '../env'
import type { RequestCredential } from '../request-credential'
import { bearerToken, unauthorized } from './bearer-token'
import { readJwtCredential } from './jwt-credential'

const looksLikeJwt = (token: string) => token.split('.').length === 3

/** Who a bearer credential speaks for. */
export interface BearerIdentity {
  workspace: Workspace
  plan: PlanName
  /** SHA-256 (hex) of the credential: the rate limiter's key. */
  hash: string
  authenticatedBy: RequestCredential
}

/**
 * An API key issued by the CLI, or, when the operator set JWT_SECRET, an HS256 JWT whose claims
 * name the workspace (and optionally the plan); a 401 otherwise. Both resolve through the
 * gateway's credential cache (no SQL built per request). One home for the policy: the
 * `Authorization` header and a WebSocket's in-band credential both come here.
 */
export async function resolveBearer(ctx: GatewayContext, token: string): Promise<BearerIdentity> {
  const { jwtSecret } = ctx.config
  const { credentials } = ctx
  const hash = sha256Hex(token)
  if (jwtSecret && looksLikeJwt(token)) {
    const credential = await readJwtCredential(token, jwtSecret)
    if (!credential.ok) throw unauthorized(credential.reason)
    const workspace = credentials.workspaceNamed(credential.workspace) ?? ensureWorkspace(ctx, credential.workspace)
    return {
      workspace,
      plan: credential.plan ?? workspace.plan,
      hash,
      authenticatedBy: { kind: 'jwt', expiresAtMs: credential.expiresAtMs },
    }
  }
  const workspace = credentials.verifyApiKey(token, hash)
  if (!workspace) throw unauthorized('Invalid or revoked API key')
  return { workspace, plan: workspace.plan, hash, authenticatedBy: { kind: 'api_key', hash } }
}

/** `Authorization: Bearer <credential>` on every /v1 route (see resolveBearer). */
export function bearerAuth(ctx: GatewayContext): MiddlewareHandler<AppEnv> {
  return async function bearerAuth(c, next) {
    const token = bearerToken(c, '<API key>')
    const identity = await resolveBearer(ctx, token)
    c.set('credentialHash', identity.hash)
    c.set('workspace', identity.workspace)
    c.set('plan', identity.plan)
    c.set('authenticatedBy', identity.authenticatedBy)
    return next()
  }
}
