import {
  isLidUser,
  isPnUser,
  jidDecode,
  jidNormalizedUser,
  WAMessageAddressingMode,
  type BinaryNode,
  type GroupMetadata,
  type GroupParticipant,
} from '@whiskeysockets/baileys'
import type { GroupInfo, GroupMember, ParticipantOutcome } from '../port/groups'

const userOf = (jid: string | undefined | null) => (jid ? jidDecode(jid)?.user : undefined)

/** Pure. A member from the attributes WhatsApp names one with: `jid`, and `phone_number` or `lid`. */
export function memberFromAttrs(attrs: Record<string, string | undefined>): Omit<GroupMember, 'admin'> {
  const jid = jidNormalizedUser(attrs.jid ?? '')
  const phone = isPnUser(jid) ? userOf(jid) : isPnUser(attrs.phone_number) ? userOf(attrs.phone_number) : undefined
  const lid = isLidUser(jid) ? userOf(jid) : isLidUser(attrs.lid) ? userOf(attrs.lid) : undefined
  return { jid, ...(phone ? { phone } : {}), ...(lid ? { lid } : {}) }
}

/** Pure. A participant of Baileys' metadata (`id`, with `phoneNumber` or `lid` beside it). */
export function toGroupMember(participant: GroupParticipant): GroupMember {
  const member = memberFromAttrs({
    jid: participant.id,
    phone_number: participant.phoneNumber,
    lid: participant.lid,
  })
  return {
    ...member,
    admin: participant.admin === 'superadmin' || participant.admin === 'admin' ? participant.admin : null,
  }
}

/** Pure. Baileys' parse of a `<group>` node (extractGroupMetadata) in our shape. */
export function toGroupInfo(metadata: GroupMetadata, fallbackAddressing?: string): GroupInfo {
  const owner =
    metadata.owner || metadata.ownerPn
      ? memberFromAttrs({ jid: metadata.owner ?? metadata.ownerPn, phone_number: metadata.ownerPn })
      : undefined
  const addressing = metadata.addressingMode ?? fallbackAddressing
  return {
    jid: metadata.id,
    subject: metadata.subject ?? '',
    ...(metadata.desc ? { description: metadata.desc } : {}),
    ...(owner ? { owner } : {}),
    announce: Boolean(metadata.announce),
    restrict: Boolean(metadata.restrict),
    memberAddMode: Boolean(metadata.memberAddMode),
    addressingMode: addressing === WAMessageAddressingMode.PN ? 'pn' : 'lid',
    ...(metadata.ephemeralDuration ? { ephemeralSeconds: metadata.ephemeralDuration } : {}),
    ...(metadata.creation ? { createdAt: new Date(metadata.creation * 1000) } : {}),
    participants: metadata.participants.map(toGroupMember),
  }
}

const pnJid = (phone: string | undefined) => (phone ? `${phone}@s.whatsapp.net` : undefined)
const lidJid = (lid: string | undefined) => (lid ? `${lid}@lid` : undefined)

/**
 * Pure. The store's copy of a group in the shape Baileys' `cachedGroupMetadata` answers: a
 * group send encrypts for these participants and addresses the group this way, with no query.
 */
export function toBaileysMetadata(group: GroupInfo): GroupMetadata {
  return {
    id: group.jid,
    subject: group.subject,
    owner: group.owner?.jid,
    ...(group.owner?.phone ? { ownerPn: pnJid(group.owner.phone) } : {}),
    addressingMode: group.addressingMode === 'pn' ? WAMessageAddressingMode.PN : WAMessageAddressingMode.LID,
    ...(group.description ? { desc: group.description } : {}),
    announce: group.announce,
    restrict: group.restrict,
    memberAddMode: group.memberAddMode,
    size: group.participants.length,
    ...(group.createdAt ? { creation: Math.floor(group.createdAt.getTime() / 1000) } : {}),
    ...(group.ephemeralSeconds ? { ephemeralDuration: group.ephemeralSeconds } : {}),
    participants: group.participants.map((member) => ({
      id: member.jid,
      ...(isLidUser(member.jid) && member.phone ? { phoneNumber: pnJid(member.phone) } : {}),
      ...(isPnUser(member.jid) && member.lid ? { lid: lidJid(member.lid) } : {}),
      admin: member.admin,
    })),
  }
}

/** Pure. The `<participant>` children of a node. */
export function participantNodes(node: BinaryNode | undefined): BinaryNode[] {
  return Array.isArray(node?.content) ? node.content.filter((child) => child.tag === 'participant') : []
}

/**
 * Pure. WhatsApp's answer for each phone asked (digits), once each, in the order asked: the
 * `<participant>` naming it by jid or `phone_number`, its `error` (none: 200) and, for a privacy
 * refusal, the `<add_request>` invite. A phone the answer does not list is reported 404.
 */
export function participantOutcomes(phones: string[], answered: BinaryNode[]): ParticipantOutcome[] {
  const byPhone = new Map<string, BinaryNode>()
  for (const node of answered) {
    const phone = memberFromAttrs(node.attrs).phone
    if (phone && !byPhone.has(phone)) byPhone.set(phone, node)
  }
  return [...new Set(phones)].map((phone): ParticipantOutcome => {
    const node = byPhone.get(phone)
    if (!node) return { phone, code: 404 }
    const code = node.attrs.error === undefined ? 200 : Number(node.attrs.error) || 500
    const request = participantChild(node, 'add_request')
    const expiration = Number(request?.attrs.expiration)
    return {
      phone,
      code,
      ...(code === 200 ? { member: { ...memberFromAttrs(node.attrs), admin: null } } : {}),
      ...(request?.attrs.code && expiration
        ? { invite: { code: request.attrs.code, expiresAt: new Date(expiration * 1000) } }
        : {}),
    }
  })
}

const participantChild = (node: BinaryNode, tag: string) =>
  Array.isArray(node.content) ? node.content.find((child) => child.tag === tag) : undefined
