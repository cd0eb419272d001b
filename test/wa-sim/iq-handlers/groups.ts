// xmlns=w:g2: group metadata (one group, or every group the account participates in).
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { Account } from '../account'
import { childrenOf, iqError, iqResult } from '../node-utils'
import type { Group, SimState } from '../state'

export const handleGroupsIq = (state: SimState, account: Account, node: BinaryNode): BinaryNode => {
  const first = childrenOf(node)[0]
  if (first?.tag === 'participating') {
    const mine = [...state.groups.values()].filter((group) => group.participants.includes(account.phone))
    return iqResult(node, [{ tag: 'groups', attrs: {}, content: mine.map((group) => groupNode(state, group)) }])
  }
  const group = state.groups.get(node.attrs.to ?? '')
  if (!group) return iqError(node, 404, 'item-not-found')
  return iqResult(node, [groupNode(state, group)])
}

/** A member as the group knows it: LID, phone number jid, and whether it is an account (admin). */
const memberOf = (
  state: SimState,
  phone: string,
): { lidJid: string; pnJid: string; isAccount: boolean } | undefined => {
  const account = state.accounts.get(phone)
  if (account) return { lidJid: account.lidJid, pnJid: account.pnJid, isAccount: true }
  const contact = state.contacts.get(phone)
  return contact ? { lidJid: contact.lidJid, pnJid: contact.pnJid, isAccount: false } : undefined
}

/** LID addressing, like current WhatsApp groups: participants by LID with their phone number. */
const groupNode = (state: SimState, group: Group): BinaryNode => {
  const owner = group.owner ? memberOf(state, group.owner) : undefined
  const participants: BinaryNode[] = group.participants.flatMap((phone) => {
    const member = memberOf(state, phone)
    if (!member) return []
    const type = phone === group.owner ? 'superadmin' : member.isAccount ? 'admin' : undefined
    return [
      { tag: 'participant', attrs: { jid: member.lidJid, phone_number: member.pnJid, ...(type ? { type } : {}) } },
    ]
  })
  return {
    tag: 'group',
    attrs: {
      id: group.jid.split('@')[0] ?? group.jid,
      subject: group.subject,
      s_t: String(group.createdAt),
      creation: String(group.createdAt),
      ...(owner ? { creator: owner.lidJid, creator_pn: owner.pnJid } : {}),
      addressing_mode: 'lid',
      size: String(participants.length),
    },
    content: participants,
  }
}
