import { and, asc, count, eq, isNotNull, or, sql, type SQL } from 'drizzle-orm'
import type { GatewayDatabase } from '../../db/database'
import { groupParticipants, groups, type GroupRow } from '../../db/schema'
import type { GroupChange, GroupInfo, GroupMember, ParticipantAction } from '../../engine/whatsapp/port/groups'
import type { DbOrTx } from '../../webhooks/outbox'

/**
 * The group store: the groups a session's account is in, as WhatsApp last described them.
 * Replaced whole by the query at each login, changed by each notification and by what a
 * command WhatsApp accepted returns, emptied when the session stops being linked (see
 * forgetGroups). Every write is idempotent, so a change seen twice (a command's answer, then
 * the notification of it) lands once.
 */

type Reader = Pick<DbOrTx, 'select'>

const byGroup = (sessionId: string, groupId: string) => and(eq(groups.sessionId, sessionId), eq(groups.id, groupId))
const membersOf = (sessionId: string, groupId: string) =>
  and(eq(groupParticipants.sessionId, sessionId), eq(groupParticipants.groupId, groupId))

/** How the store keys a member: by the address the group uses for them (LID in LID groups). */
function memberJid(addressingMode: GroupRow['addressingMode'], member: Omit<GroupMember, 'admin'>): string {
  if (addressingMode === 'lid' && member.lid) return `${member.lid}@lid`
  if (addressingMode === 'pn' && member.phone) return `${member.phone}@s.whatsapp.net`
  return member.jid
}

/** The stored row of a member, found by any address WhatsApp gave (jid, phone or LID). */
function sameMember(member: Omit<GroupMember, 'admin'>): SQL {
  const matches: SQL[] = [eq(groupParticipants.jid, member.jid)]
  if (member.phone) matches.push(eq(groupParticipants.phone, member.phone))
  if (member.lid) matches.push(eq(groupParticipants.lid, member.lid))
  return or(...matches)!
}

function groupValues(sessionId: string, group: GroupInfo, now: Date) {
  return {
    sessionId,
    id: group.jid,
    subject: group.subject,
    description: group.description ?? null,
    ownerJid: group.owner?.jid ?? null,
    ownerPhone: group.owner?.phone ?? null,
    ownerLid: group.owner?.lid ?? null,
    announce: group.announce,
    restrict: group.restrict,
    memberAddMode: group.memberAddMode,
    addressingMode: group.addressingMode,
    ephemeralSeconds: group.ephemeralSeconds ?? null,
    groupCreatedAt: group.createdAt ?? null,
    createdAt: now,
    updatedAt: now,
  }
}

/** Puts a group as WhatsApp describes it now, its members replaced. */
export function putGroup(tx: DbOrTx, sessionId: string, group: GroupInfo, now: Date): void {
  const { createdAt: _, ...changes } = groupValues(sessionId, group, now)
  tx.insert(groups)
    .values(groupValues(sessionId, group, now))
    .onConflictDoUpdate({ target: [groups.sessionId, groups.id], set: changes })
    .run()
  tx.delete(groupParticipants).where(membersOf(sessionId, group.jid)).run()
  const seen = new Set<string>()
  for (const member of group.participants) {
    const jid = memberJid(group.addressingMode, member)
    if (seen.has(jid)) continue
    seen.add(jid)
    tx.insert(groupParticipants)
      .values({
        sessionId,
        groupId: group.jid,
        jid,
        phone: member.phone ?? null,
        lid: member.lid ?? null,
        admin: member.admin,
      })
      .run()
  }
}

/** The login's answer: exactly these groups, nothing from before. */
export function replaceGroups(tx: DbOrTx, sessionId: string, list: GroupInfo[], now: Date): void {
  forgetGroups(tx, sessionId)
  for (const group of list) putGroup(tx, sessionId, group, now)
}

export function removeGroup(tx: DbOrTx, sessionId: string, groupId: string): boolean {
  tx.delete(groupParticipants).where(membersOf(sessionId, groupId)).run()
  return tx.delete(groups).where(byGroup(sessionId, groupId)).returning({ id: groups.id }).all().length > 0
}

/** Empties a session's store: what a logout, a disconnect or an expiry leaves of it. */
export function forgetGroups(tx: Pick<DbOrTx, 'delete'>, sessionId: string): void {
  tx.delete(groupParticipants).where(eq(groupParticipants.sessionId, sessionId)).run()
  tx.delete(groups).where(eq(groups.sessionId, sessionId)).run()
}

export function groupRow(db: Reader, sessionId: string, groupId: string): GroupRow | undefined {
  return db.select().from(groups).where(byGroup(sessionId, groupId)).get()
}

/** A participants change WhatsApp reported or accepted; members it does not know are added. */
export function applyParticipants(
  tx: DbOrTx,
  sessionId: string,
  groupId: string,
  action: ParticipantAction,
  members: Omit<GroupMember, 'admin'>[],
  now: Date,
): void {
  const group = groupRow(tx, sessionId, groupId)
  if (!group) return
  for (const member of members) {
    const where = and(membersOf(sessionId, groupId), sameMember(member))
    if (action === 'remove') {
      tx.delete(groupParticipants).where(where).run()
      continue
    }
    const known = tx.select().from(groupParticipants).where(where).get()
    if (!known && action === 'demote') continue
    if (!known) {
      tx.insert(groupParticipants)
        .values({
          sessionId,
          groupId,
          jid: memberJid(group.addressingMode, member),
          phone: member.phone ?? null,
          lid: member.lid ?? null,
          admin: action === 'promote' ? 'admin' : null,
        })
        .run()
      continue
    }
    tx.update(groupParticipants)
      .set({
        phone: known.phone ?? member.phone ?? null,
        lid: known.lid ?? member.lid ?? null,
        // The creator stays superadmin when promoted; a demotion takes any admin right away
        ...(action === 'promote' ? { admin: known.admin ?? 'admin' } : action === 'demote' ? { admin: null } : {}),
      })
      .where(and(membersOf(sessionId, groupId), eq(groupParticipants.jid, known.jid)))
      .run()
  }
  tx.update(groups).set({ updatedAt: now }).where(byGroup(sessionId, groupId)).run()
}

export function applyChange(tx: DbOrTx, sessionId: string, groupId: string, change: GroupChange, now: Date): void {
  tx.update(groups)
    .set({
      ...(change.subject !== undefined ? { subject: change.subject } : {}),
      ...(change.description !== undefined ? { description: change.description } : {}),
      ...(change.announce !== undefined ? { announce: change.announce } : {}),
      ...(change.restrict !== undefined ? { restrict: change.restrict } : {}),
      updatedAt: now,
    })
    .where(byGroup(sessionId, groupId))
    .run()
}

export function storedMembers(db: Reader, sessionId: string, groupId: string): GroupMember[] {
  return db
    .select({
      jid: groupParticipants.jid,
      phone: groupParticipants.phone,
      lid: groupParticipants.lid,
      admin: groupParticipants.admin,
    })
    .from(groupParticipants)
    .where(membersOf(sessionId, groupId))
    .orderBy(sql`rowid`)
    .all()
    .map((row) => ({
      jid: row.jid,
      ...(row.phone ? { phone: row.phone } : {}),
      ...(row.lid ? { lid: row.lid } : {}),
      admin: row.admin,
    }))
}

export function toInfo(row: GroupRow, participants: GroupMember[]): GroupInfo {
  return {
    jid: row.id,
    subject: row.subject,
    ...(row.description !== null ? { description: row.description } : {}),
    ...(row.ownerJid
      ? {
          owner: {
            jid: row.ownerJid,
            ...(row.ownerPhone ? { phone: row.ownerPhone } : {}),
            ...(row.ownerLid ? { lid: row.ownerLid } : {}),
          },
        }
      : {}),
    announce: row.announce,
    restrict: row.restrict,
    memberAddMode: row.memberAddMode,
    addressingMode: row.addressingMode,
    ...(row.ephemeralSeconds ? { ephemeralSeconds: row.ephemeralSeconds } : {}),
    ...(row.groupCreatedAt ? { createdAt: row.groupCreatedAt } : {}),
    participants,
  }
}

/** A group as stored, whole: what Baileys' group sends use instead of asking WhatsApp. */
export function storedGroup(db: Reader, sessionId: string, groupId: string): GroupInfo | undefined {
  const row = groupRow(db, sessionId, groupId)
  return row ? toInfo(row, storedMembers(db, sessionId, groupId)) : undefined
}

/** The groups where the account (its phone or LID) is an admin. */
export function adminGroupIds(db: Reader, sessionId: string, self: { number: string | null; lid: string | null }) {
  const mine: SQL[] = []
  if (self.number) mine.push(eq(groupParticipants.phone, self.number))
  if (self.lid) mine.push(eq(groupParticipants.lid, self.lid))
  if (mine.length === 0) return new Set<string>()
  const rows = db
    .select({ groupId: groupParticipants.groupId })
    .from(groupParticipants)
    .where(and(eq(groupParticipants.sessionId, sessionId), or(...mine), isNotNull(groupParticipants.admin)))
    .all()
  return new Set(rows.map((row) => row.groupId))
}

/** Every stored group of a session with its size, ordered by subject. */
export function storedGroupList(db: GatewayDatabase, sessionId: string) {
  const sizes = db
    .select({ groupId: groupParticipants.groupId, size: count() })
    .from(groupParticipants)
    .where(eq(groupParticipants.sessionId, sessionId))
    .groupBy(groupParticipants.groupId)
    .all()
  const sizeOf = new Map(sizes.map((s) => [s.groupId, s.size]))
  return db
    .select()
    .from(groups)
    .where(eq(groups.sessionId, sessionId))
    .orderBy(asc(groups.subject), asc(groups.id))
    .all()
    .map((row) => ({ row, size: sizeOf.get(row.id) ?? 0 }))
}
