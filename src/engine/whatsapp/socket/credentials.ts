import { and, eq } from 'drizzle-orm'
import type { GatewayDatabase } from '../../../db/database'
import { waAuth } from '../../../db/schema'

/** The stored creds row's key: category `creds`, no key id. */
export const CREDS = 'creds'

/** The stored creds of a session, as the JSON text Baileys' BufferJSON wrote. */
export function credsText(db: GatewayDatabase, sessionId: string): string | undefined {
  return db
    .select({ value: waAuth.value })
    .from(waAuth)
    .where(and(eq(waAuth.sessionId, sessionId), eq(waAuth.category, CREDS), eq(waAuth.keyId, '')))
    .get()?.value
}

/** Complete pairing leaves an account identity behind; a bare `me` comes from a pairing-code request. */
export const isPaired = (creds: { me?: { id?: string } | null; account?: unknown }) =>
  Boolean(creds.me?.id && creds.account)

/**
 * Whether a session's stored credentials come from a completed pairing. Reads the JSON without
 * Baileys' reviver, so the gateway can answer it before Baileys is loaded.
 */
export function hasPairedCredentials(db: GatewayDatabase, sessionId: string): boolean {
  const text = credsText(db, sessionId)
  return text ? isPaired(JSON.parse(text) as Parameters<typeof isPaired>[0]) : false
}

export function clearAuthState(db: GatewayDatabase, sessionId: string): void {
  db.delete(waAuth).where(eq(waAuth.sessionId, sessionId)).run()
}
