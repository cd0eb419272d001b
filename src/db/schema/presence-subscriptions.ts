import { primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { timestamp } from './columns'
import { sessions } from './sessions'

/**
 * Whose presence a session asked to follow (POST /v1/contact/{phone}/presence/subscribe).
 * WhatsApp forgets a subscription with the connection, so each login asks again for every row;
 * emptied when the session stops being linked.
 */
export const presenceSubscriptions = sqliteTable(
  'presence_subscriptions',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    /** The person as subscribed: `<digits>@s.whatsapp.net` or `<digits>@lid`. */
    jid: text('jid').notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.jid] })],
)
