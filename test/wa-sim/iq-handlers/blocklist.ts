// xmlns=blocklist: the account's block list (get) and blocking or unblocking one user (set), in
// the shapes of Baileys' fetchBlocklist and updateBlockStatus (lib/Socket/chats.js): a user is
// named by LID (`jid`), and a block also carries their number (`pn_jid`), which must be the same
// user's. A blocked user's messages and calls no longer reach the account (contact-actions.ts).
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { Account } from '../account'
import { childOf, childrenOf, iqError, iqResult, isServerJid } from '../node-utils'
import { blockListOf } from '../profiles'
import type { SimState } from '../state'

const LID_JID = /^(\d{1,24})@lid$/
const PN_JID = /^(\d{1,24})@s\.whatsapp\.net$/

/** Every user `phone` blocked, as the list names them. */
export const blockedUsers = (state: SimState, phone: string): { phone: string; lid: string }[] =>
  [...blockListOf(state, phone)].flatMap((blocked) => {
    const lid = state.accounts.get(blocked)?.lid ?? state.contacts.get(blocked)?.lid
    return lid ? [{ phone: blocked, lid }] : []
  })

export const handleBlocklistIq = (state: SimState, account: Account, node: BinaryNode): BinaryNode => {
  const malformed = (why: string) => {
    state.violations.record(account.phone, 'malformed-node', `blocklist ${node.attrs.type} iq: ${why}`)
    return iqError(node, 400, 'bad-request')
  }
  if (!isServerJid(node.attrs.to)) return malformed(`"to" is ${node.attrs.to ?? 'missing'}`)
  if (node.attrs.type === 'get') {
    const items = blockedUsers(state, account.phone).map(({ phone, lid }) => ({
      tag: 'item',
      attrs: { jid: `${lid}@lid`, pn_jid: `${phone}@s.whatsapp.net` },
    }))
    return iqResult(node, [{ tag: 'list', attrs: {}, content: items }])
  }
  const items = childrenOf(node).filter((child) => child.tag === 'item')
  const item = childOf(node, 'item')
  if (node.attrs.type !== 'set' || items.length !== 1 || !item) return malformed('not a set of one <item>')
  const { action, jid = '', pn_jid: pnJid } = item.attrs
  if (action !== 'block' && action !== 'unblock') return malformed(`action "${String(action).slice(0, 20)}"`)
  const lid = LID_JID.exec(jid)?.[1]
  if (!lid) return malformed(`${action} of "${jid.slice(0, 40)}", which is no LID`)
  const { account: other, contact } = state.lookupUser(lid, 'lid')
  const user = other?.phone ?? contact?.phone
  if (action === 'block') {
    const pn = PN_JID.exec(pnJid ?? '')?.[1]
    if (!pn) return malformed(`block of ${jid} without pn_jid`)
    if (user !== undefined && (state.numberAliases.get(pn) ?? pn) !== user)
      return malformed(`block of ${jid} with the number of another user (${pn})`)
  } else if (pnJid !== undefined) return malformed('unblock with pn_jid')
  if (!user) return iqError(node, 404, 'item-not-found')
  if (user === account.phone) return malformed('the account blocking itself')
  const list = blockListOf(state, account.phone)
  if (action === 'block') list.add(user)
  else list.delete(user)
  return iqResult(node)
}
