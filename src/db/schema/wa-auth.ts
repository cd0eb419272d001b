import { primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { sessions } from './sessions'

/**
 * Baileys' auth state: the credentials (category `creds`, key id '') and every Signal key
 * type (`pre-key`, `session`, `sender-key`, `app-state-sync-key`, `lid-mapping`, ...),
 * each serialised with Baileys' BufferJSON. Deleting a session deletes its keys.
 */
export const waAuth = sqliteTable(
  'wa_auth',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    category: text('category').notNull(),
    keyId: text('key_id').notNull(),
    value: text('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.category, t.keyId] })],
)
