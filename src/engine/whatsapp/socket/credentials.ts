import type { AuthStore } from '../port/auth-store'

/** Complete pairing leaves an account identity behind; a bare `me` comes from a pairing-code request. */
export const isPaired = (creds: { me?: { id?: string } | null; account?: unknown }) =>
  Boolean(creds.me?.id && creds.account)

/**
 * Whether a session's stored credentials come from a completed pairing. Reads the JSON without
 * Baileys' reviver, so the gateway can answer it before Baileys is loaded.
 */
export function hasPairedCredentials(store: AuthStore, sessionId: string): boolean {
  const text = store.readCreds(sessionId)
  return text ? isPaired(JSON.parse(text) as Parameters<typeof isPaired>[0]) : false
}
