import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { sessions, webhookPreviousSecrets } from '../db/schema'
import type { DbOrTx } from './outbox'

/** A Standard Webhooks secret: `whsec_` + base64 of 24 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`

/** How long deliveries carry a signature with the replaced secret too. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000

/**
 * Gives a session a new secret (inside the caller's transaction) and keeps the old one for
 * 24 h, during which deliveries are signed with both. A second rotation within the window
 * keeps only the secret it replaced.
 */
export function rotateWebhookSecret(tx: DbOrTx, sessionId: string, now: Date): string {
  const current = tx.select({ secret: sessions.webhookSecret }).from(sessions).where(eq(sessions.id, sessionId)).get()
  if (!current) throw new Error(`no session ${sessionId}`)
  const secret = newWebhookSecret()
  const previous = { secret: current.secret, expiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS) }
  tx.insert(webhookPreviousSecrets)
    .values({ sessionId, ...previous })
    .onConflictDoUpdate({ target: webhookPreviousSecrets.sessionId, set: previous })
    .run()
  tx.update(sessions).set({ webhookSecret: secret }).where(eq(sessions.id, sessionId)).run()
  return secret
}
