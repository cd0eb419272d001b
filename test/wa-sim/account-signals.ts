// What a client tells others about its account besides messages: receipts for what it received
// (delivered, read…) and presence (<presence> for the account, <chatstate> for a chat). The
// simulator records them per account and checks them as WhatsApp would.
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { Account } from './account'
import { childrenOf } from './node-utils'
import type { SimState } from './state'

export interface ClientReceipt {
  /** The receipt's `id` and the ids in its <list> */
  ids: string[]
  /** The receipt type; 'delivered' when the stanza has none */
  type: string
  /** The chat it answers: a contact's jid, another account's, or a group */
  to: string
  /** Groups: the author of the messages */
  participant?: string
  timestamp: number
}

export type PresenceSignal =
  | { kind: 'presence'; type: string; name?: string; to?: string; timestamp: number }
  | { kind: 'chatstate'; to: string; state: 'composing' | 'recording' | 'paused'; timestamp: number }

/** Receipt types that say "a person saw it": they must answer messages the other side really sent. */
const SEEN = new Set(['read', 'read-self', 'played'])
const PRESENCE_TYPES = new Set(['available', 'unavailable', 'subscribe', 'unsubscribe'])

const receiptIds = (node: BinaryNode): string[] => {
  const list = childrenOf(node).find((child) => child.tag === 'list')
  return [node.attrs.id ?? '', ...childrenOf(list).map((item) => item.attrs.id ?? '')].filter((id) => id !== '')
}

const userOf = (jid: string): { user: string; server: string } => {
  const [userPart = '', server = ''] = jid.split('@')
  return { user: userPart.split(':')[0] ?? '', server }
}

/** Whether `id` is a message the party at `to` (or, in a group, `participant`) sent to this account. */
const sentToAccount = (state: SimState, account: Account, to: string, participant: string | undefined, id: string) => {
  const group = to.endsWith('@g.us') ? to : undefined
  const author = userOf(group ? (participant ?? '') : to)
  const { contact, account: other } = state.lookupUser(author.user, author.server)
  const sent = contact?.sent.get(id)
  if (sent) return sent.account === account.phone && (group ? sent.chat === group : !sent.chat.endsWith('@g.us'))
  return other !== undefined && other !== account && other.sentMessageIds.has(id)
}

export const recordClientReceipt = (state: SimState, account: Account, node: BinaryNode): void => {
  const receipt: ClientReceipt = {
    ids: receiptIds(node),
    type: node.attrs.type ?? 'delivered',
    to: node.attrs.to ?? '',
    ...(node.attrs.participant ? { participant: node.attrs.participant } : {}),
    timestamp: Date.now(),
  }
  if (SEEN.has(receipt.type)) {
    for (const id of receipt.ids) {
      if (!sentToAccount(state, account, receipt.to, receipt.participant, id)) {
        state.violations.record(
          account.phone,
          'unknown-receipt-reference',
          `${receipt.type} receipt to ${receipt.to}${receipt.participant ? ` (participant ${receipt.participant})` : ''} for message ${id}, which it never sent to this account`,
        )
      }
    }
  }
  if (PEER_RECEIPTS.has(receipt.type)) checkPeerReceipt(state, account, receipt)
  account.receipts.push(receipt)
}

/** Receipts for what the account's own phone sent its device: peer_msg for any, hist_sync for history notifications. */
const PEER_RECEIPTS = new Set(['peer_msg', 'hist_sync'])

/**
 * A peer_msg or hist_sync receipt goes to the account itself (its PN or LID) and names messages
 * its phone sent this device (hist_sync: history-sync notifications); each is recorded on the
 * notification it acknowledges.
 */
const checkPeerReceipt = (state: SimState, account: Account, receipt: ClientReceipt): void => {
  const to = userOf(receipt.to)
  const toSelf =
    (to.server === 'lid' && to.user === account.lid) || (to.server === 's.whatsapp.net' && to.user === account.phone)
  for (const id of receipt.ids) {
    const kind = account.peerMessages.get(id)
    const problem = !toSelf
      ? `addressed to ${receipt.to}, not the account itself`
      : !kind
        ? `for message ${id}, which the account's phone never sent this device`
        : receipt.type === 'hist_sync' && kind !== 'history-sync'
          ? `for message ${id}, which is no history-sync notification`
          : undefined
    if (problem) {
      state.violations.record(account.phone, 'unknown-receipt-reference', `${receipt.type} receipt ${problem}`)
      continue
    }
    account.historySent.find((record) => record.id === id)?.receipts.add(receipt.type)
  }
}

/**
 * <presence type=available|unavailable name=…>: WhatsApp takes an account's presence only with its
 * push name. Answers whether the presence was well formed.
 */
export const recordPresence = (state: SimState, account: Account, node: BinaryNode): boolean => {
  const { type, name, to } = node.attrs
  if (type !== undefined && !PRESENCE_TYPES.has(type)) {
    state.violations.record(account.phone, 'malformed-presence', `<presence type="${type}">: unknown type`)
    return false
  }
  if ((type === 'available' || type === 'unavailable') && !name) {
    state.violations.record(account.phone, 'malformed-presence', `<presence type="${type}"> without the account's name`)
    return false
  }
  if ((type === 'subscribe' || type === 'unsubscribe') && !to) {
    state.violations.record(account.phone, 'malformed-presence', `<presence type="${type}"> without to`)
    return false
  }
  // A bare <presence/> says nothing (Baileys sends one on many credential updates of a named account).
  if (!type && !name) return true
  // A presence with only a name announces the account's (new) name, online.
  account.presence.push({
    kind: 'presence',
    type: type ?? 'available',
    ...(name ? { name } : {}),
    ...(to ? { to } : {}),
    timestamp: Date.now(),
  })
  return true
}

/** <chatstate to=…> with exactly one <composing/> (media="audio": recording) or <paused/>. */
export const recordChatState = (state: SimState, account: Account, node: BinaryNode): void => {
  const children = childrenOf(node)
  const child = children[0]
  const problem = !node.attrs.to
    ? 'without to'
    : children.length !== 1 || !child
      ? `with ${children.length} children (one <composing/> or <paused/> expected)`
      : child.tag !== 'composing' && child.tag !== 'paused'
        ? `with <${child.tag}> (only <composing/> or <paused/>)`
        : Object.keys(child.attrs).some((attr) => attr !== 'media') ||
            (child.attrs.media !== undefined && (child.tag !== 'composing' || child.attrs.media !== 'audio'))
          ? `with <${child.tag} ${Object.entries(child.attrs)
              .map(([k, v]) => `${k}="${v}"`)
              .join(' ')}> (only composing takes media="audio")`
          : undefined
  if (problem || !child) {
    state.violations.record(account.phone, 'malformed-chatstate', `<chatstate> ${problem}`)
    return
  }
  const recording = child.tag === 'composing' && child.attrs.media === 'audio'
  account.presence.push({
    kind: 'chatstate',
    to: node.attrs.to ?? '',
    state: recording ? 'recording' : (child.tag as 'composing' | 'paused'),
    timestamp: Date.now(),
  })
}
