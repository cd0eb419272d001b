import type { Session } from '../../db/schema'
import type { GroupActor, GroupInfo } from '../../engine/whatsapp/port/groups'
import type { GroupSummaryView, GroupView } from '../../schemas/group'
import { ownRole } from './self'

/**
 * A person as the API shows them, each form where WhatsApp revealed it: the number as digits,
 * the LID as `<digits>@lid` (the API's one LID form, which `phone` also takes).
 */
export const partyView = (party: GroupActor | undefined) =>
  party ? { phone: party.phone ?? null, lid: party.lid ? `${party.lid}@lid` : null } : null

export function groupSummaryView(
  group: Pick<GroupInfo, 'jid' | 'subject' | 'announce' | 'restrict' | 'createdAt'>,
  size: number,
  isAdmin: boolean,
): GroupSummaryView {
  return {
    groupId: group.jid,
    subject: group.subject,
    size,
    isAdmin,
    announce: group.announce,
    restrict: group.restrict,
    createdAt: group.createdAt ? group.createdAt.toISOString() : null,
  }
}

/** A group with its participants, as GET /v1/group/{groupId} answers it. */
export function groupView(session: Pick<Session, 'number' | 'lid'>, group: GroupInfo): GroupView {
  return {
    ...groupSummaryView(group, group.participants.length, ownRole(session, group.participants) !== null),
    description: group.description ?? null,
    owner: group.owner ? partyView(group.owner) : null,
    participants: group.participants.map((member) => ({ ...partyView(member)!, admin: member.admin })),
  }
}
