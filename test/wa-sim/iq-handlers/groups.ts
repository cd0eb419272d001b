// xmlns=w:g2: group metadata, the participating list, and every administration iq Baileys sends
// (lib/Socket/groups.js): create, participants, subject, description, settings, invite links,
// joining by link and leaving. Malformed iqs are violations; refusals are WhatsApp's error codes.
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { Account } from '../account'
import { groupNode, isUserJid } from '../group-nodes'
import {
  answerNode,
  createGroup,
  groupByInviteCode,
  GroupLimit,
  groupOf,
  GroupRefusal,
  inviteCodeOf,
  joinByInviteCode,
  leaveGroup,
  requireMember,
  resetInviteCode,
  setDescription,
  setSetting,
  setSubject,
  updateParticipants,
  type GroupSetting,
  type ParticipantAction,
} from '../group-ops'
import { childOf, childrenOf, contentBytes, iqError, iqResult } from '../node-utils'
import type { SimState } from '../state'

/** A request no WhatsApp client sends: recorded, and answered 400 bad-request. */
class Malformed extends Error {}

const PARTICIPANT_ACTIONS = new Set<string>(['add', 'remove', 'promote', 'demote'])
const SETTINGS = new Set<string>(['announcement', 'not_announcement', 'locked', 'unlocked'])
const SERVER = new Set(['@g.us', 'g.us'])

export const handleGroupsIq = (state: SimState, account: Account, node: BinaryNode): BinaryNode => {
  try {
    return answer(state, account, node)
  } catch (error) {
    if (error instanceof GroupLimit) state.violations.record(account.phone, 'over-limit', error.detail)
    if (error instanceof GroupRefusal) return iqError(node, error.code, error.text)
    if (error instanceof Malformed) {
      state.violations.record(account.phone, 'malformed-node', `w:g2 ${node.attrs.type} iq: ${error.message}`)
      return iqError(node, 400, 'bad-request')
    }
    throw error
  }
}

const answer = (state: SimState, account: Account, node: BinaryNode): BinaryNode => {
  const children = childrenOf(node)
  const first = children[0]
  if (!first) throw new Malformed('no child')
  const to = node.attrs.to ?? ''
  const type = node.attrs.type
  if (SERVER.has(to)) return serverIq(state, account, node, first)
  if (!/^\d{1,24}(-\d{1,24})?@g\.us$/.test(to)) throw new Malformed(`"to" is not a group jid: ${to.slice(0, 40)}`)
  const group = groupOf(state, to)
  const me = account.phone
  if (type === 'get' && first.tag === 'query') {
    account.stats.groupMetadataQueries++
    requireMember(group, me)
    return iqResult(node, [groupNode(state, group)])
  }
  if (type === 'get' && first.tag === 'invite')
    return iqResult(node, [{ tag: 'invite', attrs: { code: inviteCodeOf(group, me) } }])
  if (type !== 'set') throw new Malformed(`unknown get <${first.tag}>`)
  if (first.tag === 'invite')
    return iqResult(node, [{ tag: 'invite', attrs: { code: resetInviteCode(state, group, me) } }])
  if (PARTICIPANT_ACTIONS.has(first.tag)) {
    const answers = updateParticipants(state, group, me, first.tag as ParticipantAction, participantJids(first))
    return iqResult(node, [{ tag: first.tag, attrs: {}, content: answers.map(answerNode) }])
  }
  if (first.tag === 'subject') {
    const bytes = contentBytes(first)
    if (!bytes) throw new Malformed('<subject> without text')
    setSubject(state, group, me, bytes.toString('utf-8'))
    return iqResult(node)
  }
  if (first.tag === 'description') {
    const deleting = first.attrs.delete === 'true'
    const body = contentBytes(childOf(first, 'body'))
    if (!deleting && (!first.attrs.id || !body)) throw new Malformed('<description> without id and <body>, or delete')
    setDescription(state, group, me, {
      ...(deleting ? {} : { text: body!.toString('utf-8'), id: first.attrs.id }),
      ...(first.attrs.prev ? { prev: first.attrs.prev } : {}),
    })
    return iqResult(node)
  }
  if (SETTINGS.has(first.tag)) {
    setSetting(state, group, me, first.tag as GroupSetting)
    return iqResult(node)
  }
  // Ephemeral timers, member-add mode, join approval...: WhatsApp has them, the simulator does not.
  return iqError(node, 501, 'feature-not-implemented')
}

/** iqs to the groups server itself (`@g.us`): list, create, leave, links. */
const serverIq = (state: SimState, account: Account, node: BinaryNode, first: BinaryNode): BinaryNode => {
  const type = node.attrs.type
  if (type === 'get' && first.tag === 'participating') {
    const mine = [...state.groups.values()].filter((group) => group.participants.includes(account.phone))
    return iqResult(node, [{ tag: 'groups', attrs: {}, content: mine.map((group) => groupNode(state, group)) }])
  }
  if (first.tag === 'invite') {
    const code = first.attrs.code
    if (!code || !/^[A-Za-z0-9]{1,64}$/.test(code)) throw new Malformed('<invite> without a code')
    // get: what the link opens, without joining; set: join
    if (type === 'get') return iqResult(node, [groupNode(state, groupByInviteCode(state, code))])
    const group = joinByInviteCode(state, account.phone, code)
    return iqResult(node, [{ tag: 'group', attrs: { jid: group.jid } }])
  }
  if (type !== 'set') throw new Malformed(`unknown get <${first.tag}> to @g.us`)
  if (first.tag === 'create') {
    const subject = first.attrs.subject
    if (subject === undefined) throw new Malformed('<create> without a subject')
    const { group, answers } = createGroup(state, account.phone, subject, participantJids(first, true), first.attrs.key)
    // Those who could not be added are listed with their error (and the invite WhatsApp offers instead)
    const refused = answers.filter((a) => a.error).map(answerNode)
    return iqResult(node, [groupNode(state, group, refused)])
  }
  if (first.tag === 'leave') {
    const ids = childrenOf(first)
      .filter((child) => child.tag === 'group')
      .map((child) => child.attrs.id)
    if (ids.length === 0 || ids.some((id) => !id)) throw new Malformed('<leave> without <group id>')
    for (const id of ids) leaveGroup(state, groupOf(state, id!), account.phone)
    return iqResult(node, [
      { tag: 'leave', attrs: {}, content: ids.map((id) => ({ tag: 'group', attrs: { id: id! } })) },
    ])
  }
  throw new Malformed(`unknown set <${first.tag}> to @g.us`)
}

const participantJids = (action: BinaryNode, mayBeEmpty = false): string[] => {
  const participants = childrenOf(action).filter((child) => child.tag === 'participant')
  if (!mayBeEmpty && participants.length === 0) throw new Malformed(`<${action.tag}> without participants`)
  const jids = participants.map((participant) => {
    if (!isUserJid(participant.attrs.jid))
      throw new Malformed(`participant jid ${String(participant.attrs.jid).slice(0, 40)} is not a user jid`)
    return participant.attrs.jid
  })
  // WhatsApp's own clients list each person once: a client that repeats one is caught here.
  const twice = jids.find((jid, i) => jids.indexOf(jid) !== i)
  if (twice) throw new Malformed(`participant ${twice.slice(0, 40)} listed twice`)
  return jids
}
