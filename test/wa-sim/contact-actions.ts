// What a contact's phone does towards an account: send messages, edit or revoke its own (Signal-
// encrypted to the client's uploaded bundle), send receipts, and offer calls.
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { Account } from './account'
import { accountPeerName } from './client-messages'
import type { Contact } from './contact'
import { buildAddon, isAddon, type AddonContent } from './contact-addons'
import { buildContent, editMessage, revokeMessage } from './contact-content'
import type { BuiltContent, OutgoingContent } from './contact-content'
import { deliverToGroup } from './contact-group-send'
import { SimulatorError } from './errors'
import { serverMessageId, STATUS_JID, unixNow } from './node-utils'
import { hasBlocked, pushNameOf } from './profiles'
import type { SimState } from './state'

export type ReceiptType = 'delivered' | 'read' | 'played'

export type { OutgoingContent } from './contact-content'

/** What a contact can send: a message, or a poll, a vote or a reaction (contact-addons.ts). */
export type ContactContent = OutgoingContent | AddonContent

export interface SendOptions {
  /** Address the stanza from the contact's LID (with sender_pn), as LID-migrated chats arrive */
  fromLid?: boolean
  id?: string
  /** Send into this group (jid ending in @g.us) instead of the 1:1 chat with the account */
  group?: string
}

export const sendToAccount = async (
  state: SimState,
  account: Account,
  contact: Contact,
  content: ContactContent,
  options: SendOptions = {},
): Promise<string> =>
  deliver(
    state,
    account,
    contact,
    isAddon(content)
      ? buildAddon(account, contact, content, options)
      : await buildContent(state, account, contact, content),
    options,
  )

/** The contact edits a message it sent earlier (1:1 or group), as a phone does (stanza edit="1"). */
export const editOwnMessage = (
  state: SimState,
  account: Account,
  contact: Contact,
  messageId: string,
  text: string,
  options: SendOptions = {},
): Promise<string> => {
  const chat = ownMessageChat(contact, messageId, account)
  return deliver(
    state,
    account,
    contact,
    { message: editMessage(chat, messageId, text), type: 'text' },
    { ...options, group: groupOf(chat) },
    { edit: '1' },
  )
}

/** The contact deletes a message it sent earlier for everyone (stanza edit="7", sender revoke). */
export const revokeOwnMessage = (
  state: SimState,
  account: Account,
  contact: Contact,
  messageId: string,
  options: SendOptions = {},
): Promise<string> => {
  const chat = ownMessageChat(contact, messageId, account)
  return deliver(
    state,
    account,
    contact,
    { message: revokeMessage(chat, messageId), type: 'text' },
    { ...options, group: groupOf(chat) },
    { edit: '7' },
  )
}

const groupOf = (chat: string): string | undefined => (chat.endsWith('@g.us') ? chat : undefined)

/** A phone can only edit or revoke its own messages; the protocol message names the chat as the sender sees it. */
const ownMessageChat = (contact: Contact, messageId: string, account: Account): string => {
  const sent = contact.sent.get(messageId)
  if (!sent) throw new SimulatorError('unknown_message', `${contact.phone} never sent message ${messageId}`, 404)
  return groupOf(sent.chat) ?? account.pnJid
}

const deliver = async (
  state: SimState,
  account: Account,
  contact: Contact,
  built: BuiltContent,
  options: SendOptions,
  extraAttrs: Record<string, string> = {},
): Promise<string> => {
  const id = options.id ?? serverMessageId('3A')
  if (options.group) await deliverToGroup(state, account, contact, options.group, built, id, extraAttrs)
  // Blocked: WhatsApp takes the message from the contact's phone (one tick) and never relays it
  else if (!hasBlocked(state, account.phone, contact.phone))
    await deliverDirect(state, account, contact, built, id, options, extraAttrs)
  contact.sent.set(id, { account: account.phone, chat: options.group ?? account.pnJid, message: built.message })
  if (!options.group) account.chats.add(contact.phone).add(contact.lid)
  return id
}

/**
 * Signal-encrypts to the account's companion device and relays the stanza as the server does:
 * at once when the device is online, and in any case kept in its offline queue until the device
 * acknowledges it (a delivery receipt), so a device that was offline or crashed gets it again.
 */
const deliverDirect = async (
  state: SimState,
  account: Account,
  contact: Contact,
  built: BuiltContent,
  id: string,
  options: SendOptions,
  extraAttrs: Record<string, string>,
): Promise<void> => {
  const addressing: Record<string, string> = options.fromLid
    ? { from: contact.lidJid, sender_pn: contact.pnJid, addressing_mode: 'lid' }
    : { from: contact.pnJid, sender_lid: contact.lidJid }
  const t = unixNow()
  const encrypt = async (): Promise<BinaryNode> => {
    const { type, ciphertext } = await contact.device.encrypt(
      accountPeerName(account),
      () => account.takeBundle(),
      built.message,
    )
    const encAttrs: Record<string, string> = {
      v: '2',
      type,
      ...(built.mediatype ? { mediatype: built.mediatype } : {}),
    }
    return {
      tag: 'message',
      attrs: {
        ...addressing,
        type: built.type,
        id,
        t,
        notify: pushNameOf(state, contact.phone, `Contact ${contact.phone}`),
        ...extraAttrs,
      },
      content: [{ tag: 'enc', attrs: encAttrs, content: ciphertext }],
    }
  }
  const node = await encrypt()
  account.unacknowledged.set(id, { node, reencrypt: encrypt })
  state.liveConnectionOf(account)?.sendNode(node)
}

export const sendReceipt = (
  state: SimState,
  account: Account,
  contact: Contact,
  messageId: string,
  type: ReceiptType,
  /** A group's or status@broadcast: WhatsApp sends the receipt from that chat, the contact as participant. */
  sharedChat?: string,
): void => {
  const connection = state.requireLiveConnection(account)
  const attrs: Record<string, string> = sharedChat
    ? { from: sharedChat, participant: contact.lidJid, id: messageId, t: unixNow() }
    : { from: contact.lidJid, id: messageId, t: unixNow() }
  if (type !== 'delivered') attrs.type = type
  connection.sendNode({ tag: 'receipt', attrs })
}

export const offerCall = (state: SimState, account: Account, contact: Contact): string => {
  const connection = state.requireLiveConnection(account)
  const callId = serverMessageId('CALL')
  if (hasBlocked(state, account.phone, contact.phone)) return callId // rings nowhere
  account.calls.push({ callId, from: contact.phone })
  const offer: BinaryNode = {
    tag: 'offer',
    attrs: { 'call-id': callId, 'call-creator': contact.pnJid },
    content: [{ tag: 'audio', attrs: { enc: 'opus', rate: '16000' } }],
  }
  connection.sendNode({
    tag: 'call',
    attrs: { from: contact.pnJid, id: serverMessageId('c'), t: unixNow() },
    content: [offer],
  })
  return callId
}

/** The caller hangs up a call it offered: WhatsApp tells the account's client the call ended. */
export const endCall = (state: SimState, account: Account, contact: Contact, callId: string): void => {
  const record = account.calls.find((call) => call.callId === callId && call.from === contact.phone)
  if (!record) throw new SimulatorError('unknown_call', `${contact.phone} offered no call ${callId}`, 404)
  record.ended = true
  state.liveConnectionOf(account)?.sendNode({
    tag: 'call',
    attrs: { from: contact.pnJid, id: serverMessageId('c'), t: unixNow() },
    content: [{ tag: 'terminate', attrs: { 'call-id': callId, 'call-creator': contact.pnJid } }],
  })
}

/** The contact posts a status (story) its contact `account` may see: relayed from status@broadcast. */
export const postStatus = async (
  state: SimState,
  account: Account,
  contact: Contact,
  content: OutgoingContent,
): Promise<string> => {
  const built = await buildContent(state, account, contact, content)
  const id = serverMessageId('3A')
  // A contact the account blocked shows it nothing
  if (!hasBlocked(state, account.phone, contact.phone))
    await deliverToGroup(state, account, contact, STATUS_JID, built, id, {})
  contact.sent.set(id, { account: account.phone, chat: STATUS_JID, message: built.message })
  return id
}
