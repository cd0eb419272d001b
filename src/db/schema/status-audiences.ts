import { foreignKey, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { messages } from './messages'

/**
 * Who each status the session posted was shown to: deleting it must reach the same people
 * (WhatsApp relays the revoke to the list the client gives). Goes with its message record.
 */
export const statusAudiences = sqliteTable(
  'status_audiences',
  {
    sessionId: text('session_id').notNull(),
    messageId: text('message_id').notNull(),
    /** The viewers' numbers (digits), as a JSON array. */
    contacts: text('contacts', { mode: 'json' }).$type<string[]>().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.messageId] }),
    foreignKey({ columns: [t.sessionId, t.messageId], foreignColumns: [messages.sessionId, messages.id] }).onDelete(
      'cascade',
    ),
  ],
)
