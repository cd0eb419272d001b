// xmlns=w:g2: group metadata (one group, or every group the account participates in).
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { Account } from '../account'
import { childrenOf, iqError, iqResult } from '../node-utils'
import type { Group, SimState } from '../state'

export const handleGroupsIq = (state: SimState, account: Account, node: BinaryNode): BinaryNode => {
  const first = childrenOf(node)[0]
  if (first?.tag === 'participating') {
    const mine = [...state.groups.values()].filter(group => group.ownerAccount === account.phone)
    return iqResult(node, [{ tag: 'groups', attrs: {}, content: mine.map(group => groupNode(state, group)) }])
  }
  const group = state.groups.get(node.attrs.to ?? '')
  if (!group) return iqError(node, 404, 'item-not-found')
  return iqResult(node, [groupNode(state, group)])
}

/** LID addressing, like current WhatsApp groups: participants by LID with their phone number. */
const groupNode = (state: SimState, group: Group): BinaryNode => {
  const owner = group.ownerAccount ? state.accounts.get(group.ownerAccount) : undefined
  const participants: BinaryNode[] = []
  if (owner) participants.push({ tag: 'participant', attrs: { jid: owner.lidJid, phone_number: owner.pnJid, type: 'superadmin' } })
  for (const phone of group.participants) {
    const contact = state.contacts.get(phone)
    if (contact) participants.push({ tag: 'participant', attrs: { jid: contact.lidJid, phone_number: contact.pnJid } })
  }
  return {
    tag: 'group',
    attrs: {
      id: group.jid.split('@')[0] ?? group.jid,
      subject: group.subject,
      s_t: String(group.createdAt),
      creation: String(group.createdAt),
      creator: owner?.lidJid ?? group.creator,
      ...(owner ? { creator_pn: owner.pnJid } : {}),
      addressing_mode: 'lid',
      size: String(participants.length),
    },
    content: participants,
  }
}
