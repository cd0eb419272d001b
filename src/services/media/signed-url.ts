import { createHmac, timingSafeEqual } from 'node:crypto'

/** What a signed media URL grants: one message's file, until `expiresAt` (unix seconds). */
export interface MediaClaims {
  /** The workspace's name: the edge Worker finds the session's object by it. */
  workspace: string
  sessionId: string
  messageId: string
  expiresAt: number
}

/** Tokens are short; anything longer is not one of ours (checked before any decoding). */
const MAX_TOKEN = 1024

const mac = (body: string, secret: string) => createHmac('sha256', secret).update(body).digest()

/** `<base64url JSON [workspace, session, message, expiry]>.<base64url HMAC-SHA256 of the first part>` */
export function signMediaToken(claims: MediaClaims, secret: string): string {
  const body = Buffer.from(
    JSON.stringify([claims.workspace, claims.sessionId, claims.messageId, claims.expiresAt]),
  ).toString('base64url')
  return `${body}.${mac(body, secret).toString('base64url')}`
}

/** The claims of a token, NOT verified: only for routing it to where its secret is (the edge Worker). */
export function readMediaToken(token: string): MediaClaims | undefined {
  if (token.length > MAX_TOKEN) return undefined
  const [body] = token.split('.')
  try {
    const parsed = JSON.parse(Buffer.from(body ?? '', 'base64url').toString('utf8')) as unknown
    if (!Array.isArray(parsed) || parsed.length !== 4) return undefined
    const [workspace, sessionId, messageId, expiresAt] = parsed as unknown[]
    if (typeof workspace !== 'string' || typeof sessionId !== 'string' || typeof messageId !== 'string')
      return undefined
    if (typeof expiresAt !== 'number' || !Number.isSafeInteger(expiresAt)) return undefined
    return { workspace, sessionId, messageId, expiresAt }
  } catch {
    return undefined
  }
}

/** The claims of a token signed with `secret` that has not expired; why not, otherwise. */
export function verifyMediaToken(
  token: string,
  secret: string,
  now: Date,
): { ok: true; claims: MediaClaims } | { ok: false; reason: 'invalid' | 'expired' } {
  if (token.length > MAX_TOKEN) return { ok: false, reason: 'invalid' }
  const [body = '', signature = '', ...rest] = token.split('.')
  // The canonical text is compared (in constant time), so no other spelling of the same bytes passes
  const given = Buffer.from(signature)
  const expected = Buffer.from(mac(body, secret).toString('base64url'))
  if (rest.length > 0 || given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'invalid' }
  const claims = readMediaToken(token)
  if (!claims) return { ok: false, reason: 'invalid' }
  if (claims.expiresAt * 1000 <= now.getTime()) return { ok: false, reason: 'expired' }
  return { ok: true, claims }
}
