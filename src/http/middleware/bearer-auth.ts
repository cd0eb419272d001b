import type { MiddlewareHandler } from 'hono'
import { verify } from 'hono/jwt'
import { z } from 'zod'
import { planNames } from '../../config'
import { GatewayError } from '../../errors'
import { verifyApiKey } from '../../services/api-keys'
import type { ServiceContext } from '../../services/context'
import { ensureWorkspace } from '../../services/workspaces'
import type { AppEnv } from '../env'

const jwtClaims = z.object({
  workspace: z.string().min(1).max(100),
  plan: z.enum(planNames).optional(),
})

const looksLikeJwt = (token: string) => token.split('.').length === 3

const unauthorized = (message: string) => new GatewayError('unauthorized', message)

/**
 * `Authorization: Bearer <credential>`: an API key issued by the CLI, or, when the operator
 * set JWT_SECRET, an HS256 JWT whose claims name the workspace (and optionally the plan).
 */
export function bearerAuth(ctx: ServiceContext): MiddlewareHandler<AppEnv> {
  const { jwtSecret } = ctx.config
  return async function bearerAuth(c, next) {
    const header = c.req.header('authorization')
    if (!header) throw unauthorized('Missing Authorization header; send Authorization: Bearer <API key>')
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
    if (!match) throw unauthorized('Authorization header must use the Bearer scheme')
    const token = match[1]!

    if (jwtSecret && looksLikeJwt(token)) {
      let payload: unknown
      try {
        payload = await verify(token, jwtSecret, 'HS256')
      } catch {
        throw unauthorized('Invalid or expired token')
      }
      const claims = jwtClaims.safeParse(payload)
      if (!claims.success) throw unauthorized('Token claims must name a workspace')
      const workspace = ensureWorkspace(ctx, claims.data.workspace)
      c.set('workspace', workspace)
      c.set('plan', claims.data.plan ?? workspace.plan)
      return next()
    }

    const workspace = verifyApiKey(ctx, token)
    if (!workspace) throw unauthorized('Invalid or revoked API key')
    c.set('workspace', workspace)
    c.set('plan', workspace.plan)
    return next()
  }
}
