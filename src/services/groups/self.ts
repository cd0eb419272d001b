import type { Session } from '../../db/schema'
import type { GroupActor, GroupMember } from '../../engine/whatsapp/port/groups'

/** Pure. Whether a member (or an actor) is the session's own account, by phone or LID. */
export const isSelf = (session: Pick<Session, 'number' | 'lid'>, member: GroupActor | undefined): boolean =>
  Boolean(member && ((member.phone && member.phone === session.number) || (member.lid && member.lid === session.lid)))

/** Pure. The account's role in a group: superadmin, admin, or null (a member; or not in it). */
export const ownRole = (session: Pick<Session, 'number' | 'lid'>, members: GroupMember[]) =>
  members.find((member) => isSelf(session, member))?.admin ?? null
