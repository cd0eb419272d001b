import type { Context, MiddlewareHandler } from 'hono'
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

/** What the handlers read of an accepted credential. */
export function setIdentity(c: Context<AppEnv>, identity: BearerIdentity): void {
  c.set('credentialHash', identity.hash)
  c.set('workspace', identity.workspace)
  c.set('plan', identity.plan)
  c.set('authenticatedBy', identity.authenticatedBy)
}

/** `Authorization: Bearer <credential>` on every /v1 route (see resolveBearer). */
export function bearerAuth(ctx: GatewayContext): MiddlewareHandler<AppEnv> {
  return async function bearerAuth(c, next) {
    setIdentity(c, await resolveBearer(ctx, bearerToken(c, '<API key>')))
    return next()
  }
}

/**
 * A WebSocket handshake's credential, wherever `credentialOf` finds it (a browser cannot send
 * `Authorization`); a handshake without one goes on unauthenticated, for its route to
 * authenticate in-band. Only for routes that do: every other /v1 route is behind bearerAuth.
 */
export function handshakeAuth(
  ctx: GatewayContext,
  credentialOf: (c: Context<AppEnv>) => string | undefined,
): MiddlewareHandler<AppEnv> {
  return async function handshakeAuth(c, next) {
    c.set('handshake', true)
    const token = credentialOf(c)
    if (token !== undefined) setIdentity(c, await resolveBearer(ctx, token))
    return next()
  }
}

/** The identity handshakeAuth (or bearerAuth) accepted, or none. */
export function identityOf(c: Context<AppEnv>): BearerIdentity | undefined {
  const authenticatedBy = c.get('authenticatedBy')
  if (!authenticatedBy) return undefined
  return { workspace: c.get('workspace'), plan: c.get('plan'), hash: c.get('credentialHash'), authenticatedBy }
}
