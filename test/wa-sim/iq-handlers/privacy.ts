// xmlns=privacy: the account's privacy settings, read (get) and changed one category at a time
// (set), in the shapes of Baileys' fetchPrivacySettings and privacyQuery (lib/Socket/chats.js);
// and the privacy tokens it issues (issuePrivacyTokens, lib/Socket/messages-send.js).
// Each category takes only the values WhatsApp offers for it; anything else is a 400. Who sees
// the photo and the about follows the setting where it is all or none (profiles.ts).
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { Account } from '../account'
import { childOf, childrenOf, iqError, iqResult, isServerJid } from '../node-utils'
import { profileOf } from '../profiles'
import type { SimState } from '../state'

const AUDIENCE = ['all', 'contacts', 'contact_blacklist', 'none']

/** Every category WhatsApp answers, with the values it takes (WhatsApp Web's privacy screen). */
export const PRIVACY_VALUES: Record<string, readonly string[]> = {
  last: AUDIENCE,
  online: ['all', 'match_last_seen'],
  profile: AUDIENCE,
  status: AUDIENCE,
  readreceipts: ['all', 'none'],
  groupadd: ['all', 'contacts', 'contact_blacklist'],
  calladd: ['all', 'known'],
  messages: ['all', 'contacts'],
}

export const defaultPrivacy = (): Record<string, string> =>
  Object.fromEntries(Object.keys(PRIVACY_VALUES).map((name) => [name, 'all']))

export const handlePrivacyIq = (state: SimState, account: Account, node: BinaryNode): BinaryNode => {
  const malformed = (why: string) => {
    state.violations.record(account.phone, 'malformed-node', `privacy ${node.attrs.type} iq: ${why}`)
    return iqError(node, 400, 'bad-request')
  }
  if (!isServerJid(node.attrs.to)) return malformed(`"to" is ${node.attrs.to ?? 'missing'}`)
  // Privacy tokens the account issues to the people it writes to (Baileys' issuePrivacyTokens):
  // taken, and not kept (the simulator asks for no token).
  const tokens = childOf(node, 'tokens')
  if (tokens && node.attrs.type === 'set') {
    const bad = childrenOf(tokens).find((token) => token.tag !== 'token' || !token.attrs.jid || !token.attrs.t)
    return bad ? malformed(`a <${bad.tag}> in <tokens> without jid and t`) : iqResult(node)
  }
  const privacy = childOf(node, 'privacy')
  if (!privacy) return malformed('no <privacy>')
  if (node.attrs.type === 'get') {
    const categories = Object.entries(account.privacy).map(([name, value]) => ({
      tag: 'category',
      attrs: { name, value },
    }))
    return iqResult(node, [{ tag: 'privacy', attrs: {}, content: categories }])
  }
  const categories = childrenOf(privacy)
  const category = categories[0]
  if (node.attrs.type !== 'set' || categories.length !== 1 || category?.tag !== 'category')
    return malformed('not a set of one <category>')
  const { name = '', value = '' } = category.attrs
  const allowed = PRIVACY_VALUES[name]
  if (!allowed) return malformed(`unknown category "${name.slice(0, 20)}"`)
  if (!allowed.includes(value)) return malformed(`"${value.slice(0, 20)}" for ${name}`)
  account.privacy[name] = value
  const shown = value === 'all' ? 'all' : value === 'none' ? 'none' : undefined
  if (shown && name === 'profile') profileOf(state, account.phone).privacy.picture = shown
  if (shown && name === 'status') profileOf(state, account.phone).privacy.about = shown
  return iqResult(node)
}
