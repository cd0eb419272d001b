import type { CredentialCache } from '../services/credential-cache'

/** What a request was authenticated with, kept by an answer that outlives the request. */
export type RequestCredential = { kind: 'api_key'; hash: string } | { kind: 'jwt'; expiresAtMs: number }

/**
 * Why a credential no longer stands, or null while it does: an API key revoked (or its
 * workspace gone) by any process sharing the database (the cache re-reads `auth_version`, a
 * point read shared by the turn), or a JWT past its `exp`, measured as the JWT check measures it.
 */
export function credentialEnded(
  credentials: CredentialCache,
  credential: RequestCredential,
): 'revoked' | 'expired' | null {
  if (credential.kind === 'jwt') return Date.now() >= credential.expiresAtMs ? 'expired' : null
  return credentials.isKeyValid(credential.hash) ? null : 'revoked'
}

/** How long until the credential ends by itself (a JWT's exp), for a wait that must not outlast it. */
export const msUntilExpiry = (credential: RequestCredential): number =>
  credential.kind === 'jwt' ? Math.max(0, credential.expiresAtMs - Date.now()) : Number.POSITIVE_INFINITY
