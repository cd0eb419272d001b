import { verify } from 'hono/jwt'
import { JwtTokenExpired, JwtTokenNotBefore } from 'hono/utils/jwt/types'
import { z } from 'zod'
import { planNames, type PlanName } from '../../config'

const jwtClaims = z.object({
  workspace: z.string().min(1).max(100),
  plan: z.enum(planNames).optional(),
})

export type JwtCredential =
  | {
      ok: true
      workspace: string
      plan?: PlanName
      /** The token's exp, ms since epoch. */
      expiresAtMs: number
    }
  | { ok: false; reason: string }

/**
 * Verifies an HS256 JWT and reads its claims. `exp` is required: a token without one would
 * be valid for ever, and a leaked one could never be retired short of rotating the secret.
 * Hono's verify checks `exp` and `nbf` when present; each failure gets its own reason.
 */
export async function readJwtCredential(token: string, secret: string): Promise<JwtCredential> {
  let payload: Record<string, unknown>
  try {
    payload = await verify(token, secret, 'HS256')
  } catch (error) {
    if (error instanceof JwtTokenExpired) return { ok: false, reason: 'Token expired (exp is in the past)' }
    if (error instanceof JwtTokenNotBefore) return { ok: false, reason: 'Token not valid before its nbf time' }
    return { ok: false, reason: 'Invalid or expired token' }
  }
  if (typeof payload.exp !== 'number')
    return { ok: false, reason: 'Token needs an exp claim (expiry, seconds since epoch)' }
  const claims = jwtClaims.safeParse(payload)
  if (!claims.success) return { ok: false, reason: 'Token claims must name a workspace' }
  return { ok: true, workspace: claims.data.workspace, plan: claims.data.plan, expiresAtMs: payload.exp * 1000 }
}
