import { isJidGroup, type BinaryNode } from '@whiskeysockets/baileys'
import { extractGroupMetadata } from '../baileys-internals'
import { memberFromAttrs, participantNodes, toGroupInfo } from './group-metadata'
import type { GroupActor, GroupChange, GroupNotice, ParticipantAction } from '../port/groups'

const children = (node: BinaryNode): BinaryNode[] => (Array.isArray(node.content) ? node.content : [])

const PARTICIPANT_TAGS: Record<string, ParticipantAction> = {
  add: 'add',
  remove: 'remove',
  // Baileys' name for a remove whose author is the one removed; WhatsApp also sends it as such
  leave: 'remove',
  promote: 'promote',
  demote: 'demote',
}

/** Pure. Who made the change: the notification's `participant` (LID or PN) and `participant_pn`. */
function actorOf(attrs: Record<string, string>): GroupActor | undefined {
  if (!attrs.participant) return undefined
  const { phone, lid } = memberFromAttrs({ jid: attrs.participant, phone_number: attrs.participant_pn })
  return phone || lid ? { ...(phone ? { phone } : {}), ...(lid ? { lid } : {}) } : undefined
}

function changeOf(child: BinaryNode): GroupChange | undefined {
  switch (child.tag) {
    case 'subject':
      return child.attrs.subject === undefined ? undefined : { subject: child.attrs.subject }
    case 'description': {
      const body = children(child).find((c) => c.tag === 'body')?.content
      if (body instanceof Uint8Array || typeof body === 'string')
        return { description: Buffer.from(body as Uint8Array).toString('utf8') }
      return { description: null }
    }
    case 'announcement':
    case 'not_announcement':
      return { announce: child.tag === 'announcement' }
    case 'locked':
    case 'unlocked':
      return { restrict: child.tag === 'locked' }
    default:
      return undefined
  }
}

/**
 * Pure. A `<notification type="w:gp2">` → the changes it reports, in order (one notification
 * may carry several). Read from the stanza itself rather than Baileys' events, which lose the
 * author's phone number (rc14's proto keys have no participantAlt) and are buffered and merged
 * with other updates at login. Changes the gateway does not keep (ephemeral timers, invite links,
 * join approval...) are left out.
 */
export function toGroupNotices(node: BinaryNode): GroupNotice[] {
  const groupJid = node.attrs.from
  if (node.tag !== 'notification' || node.attrs.type !== 'w:gp2' || !groupJid || !isJidGroup(groupJid)) return []
  const author = actorOf(node.attrs)
  const base = { groupJid, ...(author ? { author } : {}), at: new Date(Number(node.attrs.t) * 1000 || Date.now()) }
  return children(node).flatMap((child): GroupNotice[] => {
    if (child.tag === 'create') {
      // The <group> inside, as Baileys parses a create notification
      const group = toGroupInfo(extractGroupMetadata(child), node.attrs.addressing_mode)
      return [{ ...base, kind: 'joined', group, ...(child.attrs.reason ? { reason: child.attrs.reason } : {}) }]
    }
    const action = PARTICIPANT_TAGS[child.tag]
    if (action) {
      const members = participantNodes(child).map((p) => ({ ...memberFromAttrs(p.attrs), admin: null }))
      if (members.length === 0) return []
      return [
        {
          ...base,
          kind: 'participants',
          action,
          members,
          ...(child.attrs.reason ? { reason: child.attrs.reason } : {}),
        },
      ]
    }
    const change = changeOf(child)
    return change ? [{ ...base, kind: 'changed', change }] : []
  })
}
