import { and, desc, eq, inArray, or, sql } from 'drizzle-orm'
import { contactNames } from '../../db/schema'
import type { DbOrTx } from '../../webhooks/outbox'
import { prepared } from '../../perf/prepared'
import type { ServiceContext } from '../context'

/** Someone by number and LID (digits), each where known. */
export interface Party {
  phone?: string | null
  lid?: string | null
}

/** A push name is WhatsApp's (25 characters there); a longer one is cut, never stored whole. */
const MAX_NAME_CHARS = 100

// Every received message with a push name runs it: prepared once per gateway (perf/prepared.ts;
// figure: the inbound bench's msg/s, test/bench/inbound.ts). Its values go in as SQL, so as the
// driver stores them (seenAt in ms).
const param = (name: string) => sql`${sql.placeholder(name)}`
const upsertPushName = (db: DbOrTx) =>
  db
    .insert(contactNames)
    .values({
      sessionId: param('sessionId'),
      contact: param('contact'),
      phone: param('phone'),
      lid: param('lid'),
      pushName: param('pushName'),
      seenAt: param('seenAt'),
    })
    .onConflictDoUpdate({
      target: [contactNames.sessionId, contactNames.contact],
      set: {
        pushName: sql`excluded.push_name`,
        seenAt: sql`excluded.seen_at`,
        lid: sql`coalesce(excluded.lid, ${contactNames.lid})`,
      },
      setWhere: sql`excluded.seen_at >= ${contactNames.seenAt}`,
    })
    .prepare()

/**
 * Remembers the push name a received message carried, by the sender's number (or LID while the
 * number is unknown). A message older than the one the name came from (relayed late from the
 * offline queue) changes nothing.
 */
export function rememberPushName(ctx: ServiceContext, sessionId: string, party: Party, name: string, at: Date): void {
  const contact = party.phone ?? (party.lid ? `${party.lid}@lid` : undefined)
  const pushName = [...name.trim()].slice(0, MAX_NAME_CHARS).join('')
  if (!contact || pushName === '') return
  prepared(ctx, upsertPushName).run({
    sessionId,
    contact,
    phone: party.phone ?? null,
    lid: party.lid ?? null,
    pushName,
    seenAt: at.getTime(),
  })
}

/** The latest push name a message from this person (by number or LID) carried, if any did. */
export function pushNameOf(ctx: ServiceContext, sessionId: string, party: Party): string | undefined {
  const matches = [
    ...(party.phone ? [eq(contactNames.phone, party.phone)] : []),
    ...(party.lid ? [eq(contactNames.lid, party.lid)] : []),
  ]
  if (matches.length === 0) return undefined
  return ctx.db
    .select({ pushName: contactNames.pushName })
    .from(contactNames)
    .where(and(eq(contactNames.sessionId, sessionId), or(...matches)))
    .orderBy(desc(contactNames.seenAt))
    .limit(1)
    .get()?.pushName
}

/** Unlinked: what the account's contacts showed is not the session's any more (a new pairing may be another account). */
export function forgetContactNames(tx: Pick<DbOrTx, 'delete'>, sessionId: string): void {
  tx.delete(contactNames).where(eq(contactNames.sessionId, sessionId)).run()
}

/**
 * pushNameOf for many people at once (a page of the chat list): one query by number and LID,
 * the latest name of each person, by the index in the list.
 */
export function pushNamesOf(db: Pick<DbOrTx, 'select'>, sessionId: string, parties: Party[]): (string | undefined)[] {
  const phones = parties.flatMap((p) => (p.phone ? [p.phone] : []))
  const lids = parties.flatMap((p) => (p.lid ? [p.lid] : []))
  if (phones.length === 0 && lids.length === 0) return parties.map(() => undefined)
  const rows = db
    .select({ phone: contactNames.phone, lid: contactNames.lid, pushName: contactNames.pushName })
    .from(contactNames)
    .where(
      and(
        eq(contactNames.sessionId, sessionId),
        // By the primary key (a number is its own contact) and the LID index.
        or(
          ...(phones.length ? [inArray(contactNames.contact, phones)] : []),
          ...(lids.length ? [inArray(contactNames.lid, lids)] : []),
        ),
      ),
    )
    .orderBy(desc(contactNames.seenAt))
    .all()
  return parties.map(
    (p) =>
      rows.find((row) => (p.phone && row.phone === p.phone) || (p.lid && row.lid === p.lid))?.pushName ?? undefined,
  )
}
