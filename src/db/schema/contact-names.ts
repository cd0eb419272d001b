import { index, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { timestamp } from './columns'
import { sessions } from './sessions'

/**
 * The push names people show in the messages a session received: a profile answers with the
 * latest. Kept per session, by the sender's number (or `<lid>@lid` while the number is unknown),
 * and emptied when the session stops being linked, like its group store.
 */
export const contactNames = sqliteTable(
  'contact_names',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    /** The number (digits), or `<lid>@lid` when only the LID is known. */
    contact: text('contact').notNull(),
    /** Digits, each where known. */
    phone: text('phone'),
    lid: text('lid'),
    pushName: text('push_name').notNull(),
    /** When the message that carried it was sent: an older message relayed late changes nothing. */
    seenAt: timestamp('seen_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.contact] }), index('contact_names_lid_idx').on(t.sessionId, t.lid)],
)

export type ContactNameRow = typeof contactNames.$inferSelect
