import { and, eq } from 'drizzle-orm'
import type { GatewayDatabase } from '../../db/database'
import { messages, type MessageRecord, type MessageStatus } from '../../db/schema'
import type { ServiceContext } from '../context'
import { canAdvance } from './status-order'

export type NewMessageRecord = typeof messages.$inferInsert

const byKey = (sessionId: string, messageId: string) => and(eq(messages.sessionId, sessionId), eq(messages.id, messageId))

export function findRecord(db: GatewayDatabase, sessionId: string, messageId: string): MessageRecord | undefined {
  return db.select().from(messages).where(byKey(sessionId, messageId)).get()
}

/** Inserts a record once; a second insert of the same id (a redelivered message) changes nothing. */
export function insertRecord(db: GatewayDatabase, record: NewMessageRecord): boolean {
  const inserted = db.insert(messages).values(record).onConflictDoNothing().returning({ id: messages.id }).all()
  return inserted.length > 0
}

export interface StatusUpdate {
  status: MessageStatus
  reason?: string | null
}

/**
 * Moves a record's status forward in one immediate transaction (read, compare, write), so a
 * late or duplicate receipt can never move it back. Answers the record when it changed.
 */
export function advanceStatus(ctx: ServiceContext, sessionId: string, messageId: string, update: StatusUpdate): MessageRecord | undefined {
  return ctx.db.transaction(
    (tx) => {
      const current = tx.select({ status: messages.status }).from(messages).where(byKey(sessionId, messageId)).get()
      if (!current || !canAdvance(current.status, update.status)) return undefined
      return tx
        .update(messages)
        .set({ status: update.status, statusReason: update.reason ?? null, updatedAt: ctx.clock.now() })
        .where(byKey(sessionId, messageId))
        .returning()
        .get()
    },
    { behavior: 'immediate' },
  )
}

/** The proto bytes of a message, for Baileys' retries and for quoting it. */
export function storedPayload(db: GatewayDatabase, sessionId: string, messageId: string): Uint8Array | undefined {
  const row = db.select({ payload: messages.payload }).from(messages).where(byKey(sessionId, messageId)).get()
  return row?.payload ? new Uint8Array(row.payload) : undefined
}

export function setPayload(db: GatewayDatabase, sessionId: string, messageId: string, payload: Uint8Array): void {
  db.update(messages).set({ payload: Buffer.from(payload) }).where(byKey(sessionId, messageId)).run()
}
