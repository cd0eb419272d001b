import { foreignKey, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { lifecycleDates, timestamp } from './columns'
import { sessions } from './sessions'

/**
 * The groups a session's account is in, as WhatsApp last described them: filled by one query
 * at each login and kept fresh from WhatsApp's group notifications. Emptied when the session
 * stops being linked (logged out, disconnected, expired); see services/groups/store.ts.
 */
export const groups = sqliteTable(
  'groups',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    /** WhatsApp's group jid (`…@g.us`): the API's groupId. */
    id: text('id').notNull(),
    subject: text('subject').notNull(),
    description: text('description'),
    ownerJid: text('owner_jid'),
    ownerPhone: text('owner_phone'),
    ownerLid: text('owner_lid'),
    /** Only admins send messages. */
    announce: integer('announce', { mode: 'boolean' }).notNull(),
    /** Only admins edit the group's info. */
    restrict: integer('restrict', { mode: 'boolean' }).notNull(),
    /** Members who are not admins may add people. */
    memberAddMode: integer('member_add_mode', { mode: 'boolean' }).notNull(),
    addressingMode: text('addressing_mode', { enum: ['lid', 'pn'] }).notNull(),
    ephemeralSeconds: integer('ephemeral_seconds'),
    /** When WhatsApp says the group was created. */
    groupCreatedAt: timestamp('group_created_at'),
    ...lifecycleDates,
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.id] })],
)

export const groupParticipants = sqliteTable(
  'group_participants',
  {
    sessionId: text('session_id').notNull(),
    groupId: text('group_id').notNull(),
    /** How the group addresses them: `<lid>@lid` in LID-addressed groups, else `<phone>@s.whatsapp.net`. */
    jid: text('jid').notNull(),
    /** Digits, each where WhatsApp revealed it. */
    phone: text('phone'),
    lid: text('lid'),
    admin: text('admin', { enum: ['superadmin', 'admin'] }),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.groupId, t.jid] }),
    foreignKey({ columns: [t.sessionId, t.groupId], foreignColumns: [groups.sessionId, groups.id] }).onDelete(
      'cascade',
    ),
  ],
)

export type GroupRow = typeof groups.$inferSelect
export type GroupParticipantRow = typeof groupParticipants.$inferSelect
