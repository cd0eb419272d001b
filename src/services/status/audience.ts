import { and, eq, sql } from 'drizzle-orm'
import { contactNames, messages, statusAudiences } from '../../db/schema'
import type { Session } from '../../db/schema'
import { STATUS_AUDIENCE_MAX, STATUS_CHAT } from '../../schemas/status'
import type { ServiceContext } from '../context'
import { validationError } from '../validation-error'

/**
 * Who sees a status the session posts, as numbers (digits): the list the client gave, else every
 * contact the session knows (a 1:1 chat with them, or their name from a message), the most
 * recently seen first, at most STATUS_AUDIENCE_MAX. Never the account itself; never empty.
 */
export function statusAudience(ctx: ServiceContext, session: Session, contacts: string[] | undefined): string[] {
  const chosen = contacts ? [...new Set(contacts)] : knownContacts(ctx, session.id)
  const audience = chosen.filter((phone) => phone !== session.number)
  if (audience.length > 0) return audience
  throw validationError([
    {
      path: 'contacts',
      message: contacts
        ? 'only the session’s own number: a status needs someone else to see it'
        : 'this session knows no contacts yet: name who sees the status in `contacts`',
    },
  ])
}

/** The numbers of the session's 1:1 chats and of the names it learned, newest first. */
function knownContacts(ctx: ServiceContext, sessionId: string): string[] {
  const rows = ctx.db.all<{ phone: string }>(sql`
    SELECT phone FROM (
      SELECT ${messages.phone} AS phone, ${messages.createdAt} AS at FROM ${messages}
       WHERE ${messages.sessionId} = ${sessionId} AND ${messages.phone} IS NOT NULL
         AND ${messages.chatJid} GLOB '*@s.whatsapp.net'
      UNION ALL
      SELECT ${contactNames.phone}, ${contactNames.seenAt} FROM ${contactNames}
       WHERE ${contactNames.sessionId} = ${sessionId} AND ${contactNames.phone} IS NOT NULL
    ) GROUP BY phone ORDER BY max(at) DESC LIMIT ${STATUS_AUDIENCE_MAX}`)
  return rows.map((row) => row.phone)
}

/** Kept with the status's record (and gone with it), for its delete. */
export function keepAudience(ctx: ServiceContext, sessionId: string, messageId: string, contacts: string[]): void {
  ctx.db.insert(statusAudiences).values({ sessionId, messageId, contacts }).run()
}

/** The viewers a posted status was shown to, as WhatsApp jids; undefined for any other record. */
export function audienceOf(ctx: ServiceContext, sessionId: string, messageId: string): string[] | undefined {
  const row = ctx.db
    .select({ contacts: statusAudiences.contacts })
    .from(statusAudiences)
    .where(and(eq(statusAudiences.sessionId, sessionId), eq(statusAudiences.messageId, messageId)))
    .get()
  return row?.contacts.map((phone) => `${phone}@s.whatsapp.net`)
}

export const isStatusRecord = (record: { chatJid: string }) => record.chatJid === STATUS_CHAT
