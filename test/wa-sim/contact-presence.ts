// Contacts' presence as WhatsApp relays it: only to a connection that subscribed to the contact
// (<presence type="subscribe" to=…>, which each new connection must send again), first the
// contact's state at once, then every change; typing (<chatstate>) the same way. A contact that
// blocked the account relays nothing, and one that hides its last seen sends `last="deny"`.
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { Account } from './account'
import type { Connection } from './connection'
import type { Contact } from './contact'
import { hasBlocked } from './profiles'
import type { SimState } from './state'

export type ContactChatState = 'composing' | 'recording' | 'paused'

const USER_SERVERS = new Set(['s.whatsapp.net', 'lid'])

const presenceNode = (contact: Contact, jid: string): BinaryNode => ({
  tag: 'presence',
  attrs: contact.presence.online
    ? { from: jid }
    : {
        from: jid,
        type: 'unavailable',
        last: contact.presence.lastSeenShared ? String(Math.floor(contact.presence.lastSeen / 1000)) : 'deny',
      },
})

/** The client subscribed to someone's presence: answered with their current state when they are a contact. */
export const onPresenceSubscribe = (state: SimState, connection: Connection, account: Account, to: string): void => {
  const [user = '', server = ''] = to.split('@')
  if (!USER_SERVERS.has(server) || !/^\d{1,24}$/.test(user)) {
    state.violations.record(account.phone, 'malformed-presence', `<presence type="subscribe"> to ${to.slice(0, 40)}`)
    return
  }
  const { contact } = state.lookupUser(user, server)
  // No account behind the number, or it blocked this one: WhatsApp relays nothing.
  if (!contact || hasBlocked(state, contact.phone, account.phone)) return
  connection.presenceSubscriptions.set(contact.phone, to)
  connection.sendNode(presenceNode(contact, to))
}

/** The client no longer wants someone's presence. */
export const onPresenceUnsubscribe = (connection: Connection, to: string): void => {
  for (const [phone, jid] of connection.presenceSubscriptions)
    if (jid === to) connection.presenceSubscriptions.delete(phone)
}

/** The contact comes online or goes offline: every connection subscribed to it hears it. */
export const setContactPresence = (
  state: SimState,
  contact: Contact,
  online: boolean,
  lastSeenShared = contact.presence.lastSeenShared,
): void => {
  if (contact.presence.online && !online) contact.presence.lastSeen = Date.now()
  contact.presence.online = online
  contact.presence.lastSeenShared = lastSeenShared
  for (const account of state.accounts.values()) {
    const connection = state.liveConnectionOf(account)
    const jid = connection?.presenceSubscriptions.get(contact.phone)
    if (connection && jid && !hasBlocked(state, contact.phone, account.phone))
      connection.sendNode(presenceNode(contact, jid))
  }
}

/** The contact types or records in its chat with an account; answers whether the account's client was told. */
export const sendChatState = (state: SimState, account: Account, contact: Contact, chatState: ContactChatState) => {
  const connection = state.liveConnectionOf(account)
  const jid = connection?.presenceSubscriptions.get(contact.phone)
  if (!connection || !jid || hasBlocked(state, contact.phone, account.phone)) return false
  const child: BinaryNode =
    chatState === 'paused'
      ? { tag: 'paused', attrs: {} }
      : { tag: 'composing', attrs: chatState === 'recording' ? { media: 'audio' } : {} }
  connection.sendNode({ tag: 'chatstate', attrs: { from: jid }, content: [child] })
  return true
}
