import { and, eq } from 'drizzle-orm'
import type { GatewayDatabase } from '../../db/database'
import { waAuth } from '../../db/schema'

/** The stored creds row's key: category `creds`, no key id. */
export const CREDS = 'creds'

/**
 * Whether a session's stored credentials come from a completed pairing (an account identity;
 * a bare `me` comes from a pairing-code request). Reads the JSON without Baileys' reviver, so
 * the gateway can answer it before Baileys is loaded.
 */
export function hasPairedCredentials(db: GatewayDatabase, sessionId: string): boolean {
  const row = db
    .select({ value: waAuth.value })
    .from(waAuth)
    .where(and(eq(waAuth.sessionId, sessionId), eq(waAuth.category, CREDS), eq(waAuth.keyId, '')))
    .get()
  if (!row) return false
  const creds = JSON.parse(row.value) as { me?: { id?: string }; account?: unknown }
  return Boolean(creds.me?.id && creds.account)
}

export function clearAuthState(db: GatewayDatabase, sessionId: string): void {
  db.delete(waAuth).where(eq(waAuth.sessionId, sessionId)).run()
}
