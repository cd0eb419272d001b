// What the server does to a group, whoever asks (a client's <iq> or a test acting as a member):
// the checks WhatsApp makes, the change, and the notifications every member's devices get.
import { randomBytes } from 'node:crypto'
import type { BinaryNode } from '@whiskeysockets/baileys'
import { groupNode, isAdmin, memberByJid, memberOf, participantNode, roleOf, type Member } from './group-nodes'
import { notifyMembers } from './group-notify'
import { serverMessageId } from './node-utils'
import type { Group, SimState } from './state'

/** A request WhatsApp refuses as a whole: answered `<error code text>`. */
export class GroupRefusal extends Error {
  constructor(
    readonly code: number,
    readonly text: string,
  ) {
    super(`${code} ${text}`)
  }
}

/** A limit a client should have checked before asking (406; 400 for nothing): also recorded as an `over-limit` violation. */
export class GroupLimit extends GroupRefusal {
  constructor(
    readonly detail: string,
    code = 406,
  ) {
    super(code, code === 400 ? 'bad-request' : 'not-acceptable')
  }
}

export const SUBJECT_MAX_CHARS = 100
export const DESCRIPTION_MAX_CHARS = 2048
/** How long WhatsApp refuses to add back someone who left by themselves (408). */
const RECENTLY_LEFT_MS = 24 * 60 * 60 * 1000
/** How long the invite a privacy refusal offers stays valid. */
const ADD_REQUEST_SECONDS = 3 * 24 * 60 * 60

const now = () => Math.floor(Date.now() / 1000)
export const newInviteCode = () => randomBytes(16).toString('base64url').replace(/[-_]/g, 'x').slice(0, 22)

/** One participant's outcome, as the answer to an add/remove/promote/demote (or a create) lists it. */
export interface ParticipantAnswer {
  /** The jid as the client asked */
  jid: string
  member?: Member
  error?: number
  addRequest?: { code: string; expiration: number }
}

export const answerNode = (answer: ParticipantAnswer): BinaryNode => ({
  tag: 'participant',
  attrs: {
    jid: answer.jid,
    // A PN jid answered with the LID the group knows it by (WhatsApp's LID groups)
    ...(answer.member && !answer.error && answer.jid.endsWith('@s.whatsapp.net') ? { lid: answer.member.lidJid } : {}),
    ...(answer.error ? { error: String(answer.error) } : {}),
  },
  ...(answer.addRequest
    ? {
        content: [
          {
            tag: 'add_request',
            attrs: { code: answer.addRequest.code, expiration: String(answer.addRequest.expiration) },
          },
        ],
      }
    : {}),
})

export const groupOf = (state: SimState, jid: string): Group => {
  const group = state.groups.get(jid.includes('@') ? jid : `${jid}@g.us`)
  if (!group) throw new GroupRefusal(404, 'item-not-found')
  return group
}

/** Members only (403 forbidden, as WhatsApp answers someone who is not in the group). */
export const requireMember = (group: Group, phone: string): void => {
  if (!group.participants.includes(phone)) throw new GroupRefusal(403, 'forbidden')
}

/** Admins only (401 not-authorized, as WhatsApp answers a member who is not an admin). */
const requireAdmin = (group: Group, phone: string): void => {
  requireMember(group, phone)
  if (!isAdmin(group, phone)) throw new GroupRefusal(401, 'not-authorized')
}

const within = (text: string, max: number) => [...text].length <= max

/** Whether someone may be added: on WhatsApp, not already in, not just gone, and their privacy allows it. */
const admit = (state: SimState, group: Group, jid: string): ParticipantAnswer => {
  const member = memberByJid(state, jid)
  if (!member) return { jid, error: 404 }
  if (group.participants.includes(member.phone)) return { jid, member, error: 409 }
  const left = group.recentlyLeft.get(member.phone)
  if (left !== undefined && Date.now() - left < RECENTLY_LEFT_MS) return { jid, member, error: 408 }
  if (state.refusesGroupAdds.has(member.phone))
    return {
      jid,
      member,
      error: 403,
      addRequest: { code: newInviteCode().slice(0, 16), expiration: now() + ADD_REQUEST_SECONDS },
    }
  return { jid, member }
}

/** New members' devices learn the whole group (`<create>`); the others get the change itself. */
const announceJoin = (state: SimState, group: Group, actor: string, joined: Member[], reason?: string): void => {
  const newcomers = new Set(joined.map((m) => m.phone))
  const attrs: Record<string, string> = reason ? { reason } : {}
  const create: BinaryNode = { tag: 'create', attrs, content: [groupNode(state, group)] }
  notifyMembers(state, group, actor, create, newcomers)
  notifyMembers(
    state,
    group,
    actor,
    { tag: 'add', attrs, content: joined.map(participantNode) },
    group.participants.filter((phone) => !newcomers.has(phone)),
  )
}

export const createGroup = (
  state: SimState,
  creator: string,
  subject: string,
  jids: string[],
  key?: string,
): { group: Group; answers: ParticipantAnswer[] } => {
  if (!subject.trim()) throw new GroupLimit('empty subject', 400)
  if (!within(subject, SUBJECT_MAX_CHARS)) throw new GroupLimit(`subject longer than ${SUBJECT_MAX_CHARS} characters`)
  const jid = `120363${Date.now().toString().slice(-9)}${state.groups.size.toString().padStart(3, '0')}@g.us`
  const t = now()
  const group: Group = {
    jid,
    subject,
    subjectTime: t,
    subjectOwner: creator,
    owner: creator,
    participants: [creator],
    admins: new Set(),
    description: undefined,
    announce: false,
    restrict: false,
    inviteCode: newInviteCode(),
    revokedInviteCodes: new Set(),
    recentlyLeft: new Map(),
    createdAt: t,
  }
  const answers: ParticipantAnswer[] = []
  for (const asked of new Set(jids)) {
    const answer = admit(state, group, asked)
    answers.push(answer)
    if (!answer.error && answer.member) group.participants.push(answer.member.phone)
  }
  state.groups.set(jid, group)
  // Everyone in it learns the group the same way; the creator's devices see their own `key`
  const attrs: Record<string, string> = key ? { key } : {}
  const create: BinaryNode = { tag: 'create', attrs, content: [groupNode(state, group)] }
  notifyMembers(state, group, creator, create)
  return { group, answers }
}

export type ParticipantAction = 'add' | 'remove' | 'promote' | 'demote'

export const updateParticipants = (
  state: SimState,
  group: Group,
  actor: string,
  action: ParticipantAction,
  jids: string[],
): ParticipantAnswer[] => {
  requireAdmin(group, actor)
  const answers: ParticipantAnswer[] = []
  const changed: Member[] = []
  const before = [...group.participants]
  for (const asked of new Set(jids)) {
    if (action === 'add') {
      const answer = admit(state, group, asked)
      answers.push(answer)
      if (answer.error || !answer.member) continue
      group.participants.push(answer.member.phone)
      group.recentlyLeft.delete(answer.member.phone)
      changed.push(answer.member)
      continue
    }
    const member = memberByJid(state, asked)
    if (!member || !group.participants.includes(member.phone)) {
      answers.push({ jid: asked, ...(member ? { member } : {}), error: 404 })
      continue
    }
    answers.push({ jid: asked, member })
    changed.push(member)
    if (action === 'remove') {
      group.participants = group.participants.filter((phone) => phone !== member.phone)
      group.admins.delete(member.phone)
      if (group.owner === member.phone) group.owner = undefined
    }
    if (action === 'promote' && roleOf(group, member.phone) === undefined) group.admins.add(member.phone)
    if (action === 'demote') group.admins.delete(member.phone)
  }
  if (changed.length === 0) return answers
  if (action === 'add') announceJoin(state, group, actor, changed)
  else notifyMembers(state, group, actor, { tag: action, attrs: {}, content: changed.map(participantNode) }, before)
  return answers
}

export const leaveGroup = (state: SimState, group: Group, phone: string): void => {
  requireMember(group, phone)
  const before = [...group.participants]
  const member = memberOf(state, phone)
  group.participants = group.participants.filter((p) => p !== phone)
  group.admins.delete(phone)
  if (group.owner === phone) group.owner = undefined
  group.recentlyLeft.set(phone, Date.now())
  // WhatsApp tells the leaver's own devices too: a removal whose author is the one removed
  if (member)
    notifyMembers(state, group, phone, { tag: 'remove', attrs: {}, content: [participantNode(member)] }, before)
  if (group.participants.length === 0) state.groups.delete(group.jid)
}

export const setSubject = (state: SimState, group: Group, actor: string, subject: string): void => {
  requireMember(group, actor)
  if (group.restrict) requireAdmin(group, actor)
  if (!subject.trim()) throw new GroupLimit('empty subject', 400)
  if (!within(subject, SUBJECT_MAX_CHARS)) throw new GroupLimit(`subject longer than ${SUBJECT_MAX_CHARS} characters`)
  group.subject = subject
  group.subjectTime = now()
  group.subjectOwner = actor
  const by = memberOf(state, actor)
  notifyMembers(state, group, actor, {
    tag: 'subject',
    attrs: {
      subject,
      s_t: String(group.subjectTime),
      ...(by ? { s_o: by.lidJid, s_o_pn: by.pnJid } : {}),
    },
  })
}

/** `text` undefined deletes it; `prev` must name the description in force (409 conflict otherwise). */
export const setDescription = (
  state: SimState,
  group: Group,
  actor: string,
  change: { text?: string; id?: string; prev?: string },
): void => {
  requireMember(group, actor)
  if (group.restrict) requireAdmin(group, actor)
  if ((change.prev ?? undefined) !== group.description?.id) throw new GroupRefusal(409, 'conflict')
  if (change.text !== undefined && !within(change.text, DESCRIPTION_MAX_CHARS))
    throw new GroupLimit(`description longer than ${DESCRIPTION_MAX_CHARS} characters`)
  const id = change.id ?? serverMessageId()
  group.description = change.text === undefined ? undefined : { id, text: change.text, time: now(), by: actor }
  notifyMembers(state, group, actor, {
    tag: 'description',
    attrs: { id },
    content:
      change.text === undefined
        ? [{ tag: 'delete', attrs: {} }]
        : [{ tag: 'body', attrs: {}, content: Buffer.from(change.text, 'utf-8') }],
  })
}

export type GroupSetting = 'announcement' | 'not_announcement' | 'locked' | 'unlocked'

export const setSetting = (state: SimState, group: Group, actor: string, setting: GroupSetting): void => {
  requireAdmin(group, actor)
  if (setting === 'announcement' || setting === 'not_announcement') group.announce = setting === 'announcement'
  else group.restrict = setting === 'locked'
  notifyMembers(state, group, actor, {
    tag: setting,
    attrs: setting.endsWith('announcement') ? { v_id: String(Date.now()) } : {},
  })
}

export const inviteCodeOf = (group: Group, actor: string): string => {
  requireAdmin(group, actor)
  return group.inviteCode
}

export const resetInviteCode = (state: SimState, group: Group, actor: string): string => {
  requireAdmin(group, actor)
  group.revokedInviteCodes.add(group.inviteCode)
  group.inviteCode = newInviteCode()
  notifyMembers(state, group, actor, { tag: 'invite', attrs: { code: group.inviteCode } })
  return group.inviteCode
}

/** The group a link's code opens: 410 gone for a reset link, 406 not-acceptable for a code no group had. */
export const groupByInviteCode = (state: SimState, code: string): Group => {
  for (const group of state.groups.values()) {
    if (group.inviteCode === code) return group
    if (group.revokedInviteCodes.has(code)) throw new GroupRefusal(410, 'gone')
  }
  throw new GroupRefusal(406, 'not-acceptable')
}

/** Joins by an invite link's code; already a member is not an error (the group is answered). */
export const joinByInviteCode = (state: SimState, phone: string, code: string): Group => {
  const group = groupByInviteCode(state, code)
  if (group.participants.includes(phone)) return group
  const member = memberOf(state, phone)
  if (!member) throw new GroupRefusal(404, 'item-not-found')
  group.participants.push(phone)
  group.recentlyLeft.delete(phone)
  announceJoin(state, group, phone, [member], 'invite')
  return group
}
