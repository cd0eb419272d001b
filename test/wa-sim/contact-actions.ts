// What a contact's phone does towards an account: send messages, edit or revoke its own (Signal-
// encrypted to the client's uploaded bundle), send receipts, and offer calls.
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { Account } from './account'
import { accountPeerName } from './client-messages'
import type { Contact } from './contact'
import { buildContent, editMessage, revokeMessage } from './contact-content'
import type { BuiltContent, OutgoingContent } from './contact-content'
import { SimulatorError } from './errors'
import { serverMessageId, unixNow } from './node-utils'
import type { SimState } from './state'

export type ReceiptType = 'delivered' | 'read' | 'played'

export type { OutgoingContent } from './contact-content'

export interface SendOptions {
  /** Address the stanza from the contact's LID (with sender_pn), as LID-migrated chats arrive */
  fromLid?: boolean
  id?: string
}

const liveConnection = (state: SimState, account: Account) => {
  const connection = state.liveConnectionOf(account)
  if (!connection) throw new SimulatorError('account_offline', `account ${account.phone} has no open connection`, 409)
  return connection
}

export const sendToAccount = async (state: SimState, account: Account, contact: Contact, content: OutgoingContent, options: SendOptions = {}): Promise<string> =>
  deliver(state, account, contact, await buildContent(state, account, contact, content), options)

/** The contact edits a message it sent to `account` earlier, as a phone does (stanza edit="1"). */
export const editOwnMessage = (state: SimState, account: Account, contact: Contact, messageId: string, text: string, options: SendOptions = {}): Promise<string> => {
  ownMessage(contact, messageId)
  return deliver(state, account, contact, { message: editMessage(account, messageId, text), type: 'text' }, options, { edit: '1' })
}

/** The contact deletes a message it sent to `account` for everyone (stanza edit="7", sender revoke). */
export const revokeOwnMessage = (state: SimState, account: Account, contact: Contact, messageId: string, options: SendOptions = {}): Promise<string> => {
  ownMessage(contact, messageId)
  return deliver(state, account, contact, { message: revokeMessage(account, messageId), type: 'text' }, options, { edit: '7' })
}

/** A phone can only edit or revoke its own messages. */
const ownMessage = (contact: Contact, messageId: string): void => {
  if (!contact.sent.has(messageId)) throw new SimulatorError('unknown_message', `${contact.phone} never sent message ${messageId}`, 404)
}

/** Signal-encrypts to the account's companion device and sends the stanza as the server relays it. */
const deliver = async (state: SimState, account: Account, contact: Contact, built: BuiltContent, options: SendOptions, extraAttrs: Record<string, string> = {}): Promise<string> => {
  const connection = liveConnection(state, account)
  const { type, ciphertext } = await contact.device.encrypt(accountPeerName(account), () => account.takeBundle(), built.message)
  const id = options.id ?? serverMessageId('3A')
  const addressing: Record<string, string> = options.fromLid ? { from: contact.lidJid, sender_pn: contact.pnJid, addressing_mode: 'lid' } : { from: contact.pnJid, sender_lid: contact.lidJid }
  const encAttrs: Record<string, string> = { v: '2', type, ...(built.mediatype ? { mediatype: built.mediatype } : {}) }
  connection.sendNode({
    tag: 'message',
    attrs: { ...addressing, type: built.type, id, t: unixNow(), notify: `Contact ${contact.phone}`, ...extraAttrs },
    content: [{ tag: 'enc', attrs: encAttrs, content: ciphertext }],
  })
  contact.sent.set(id, { account: account.phone, message: built.message })
  return id
}

export const sendReceipt = (state: SimState, account: Account, contact: Contact, messageId: string, type: ReceiptType): void => {
  const connection = liveConnection(state, account)
  const attrs: Record<string, string> = { from: contact.lidJid, id: messageId, t: unixNow() }
  if (type !== 'delivered') attrs.type = type
  connection.sendNode({ tag: 'receipt', attrs })
}

export const offerCall = (state: SimState, account: Account, contact: Contact): string => {
  const connection = liveConnection(state, account)
  const callId = serverMessageId('CALL')
  account.calls.push({ callId, from: contact.phone })
  const offer: BinaryNode = {
    tag: 'offer',
    attrs: { 'call-id': callId, 'call-creator': contact.pnJid },
    content: [{ tag: 'audio', attrs: { enc: 'opus', rate: '16000' } }],
  }
  connection.sendNode({ tag: 'call', attrs: { from: contact.pnJid, id: serverMessageId('c'), t: unixNow() }, content: [offer] })
  return callId
}
