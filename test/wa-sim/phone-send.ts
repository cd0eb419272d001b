// The account's own phone sends a 1:1 message from WhatsApp itself: the contact receives it, and
// WhatsApp relays a copy to each linked companion device, as it does: a <message> from the
// account's own jid (device 0) with `recipient` naming the chat and `peer_recipient_pn`/`_lid`
// its other form, Signal-encrypted by the phone's device to the companion, the payload wrapped in
// `deviceSentMessage { destinationJid, message }` (Baileys unwraps it and upserts it fromMe).
import { proto } from '@whiskeysockets/baileys'
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { Account } from './account'
import { pollMessage } from './contact-addons'
import type { ContactContent } from './contact-actions'
import { buildContent, type BuiltContent } from './contact-content'
import type { Contact } from './contact'
import { serverMessageId, unixNow } from './node-utils'
import type { SimState } from './state'
import { stanzaInfoOf } from './stanza-info'
import { SimulatorError } from './errors'

export interface PhoneSendOptions {
  /** How WhatsApp addresses the chat in the copy: by LID (current default) or by number. */
  addressing?: 'lid' | 'pn'
  id?: string
}

/** The phone's Signal session with its own companion device (separate from the copies it decrypts). */
export const companionPeerName = (account: Account) => `companion_${account.phone}_${account.deviceId}`

export const sendFromPhone = async (
  state: SimState,
  account: Account,
  contactPhone: string,
  content: ContactContent,
  options: PhoneSendOptions = {},
): Promise<string> => {
  const contact = state.contactByPhone(contactPhone)
  if (!contact) throw new SimulatorError('unknown_contact', `no contact ${contactPhone}`, 404)
  const lid = (options.addressing ?? 'lid') === 'lid'
  const destinationJid = lid ? contact.lidJid : contact.pnJid
  const built = await phoneContent(state, account, contact, content, destinationJid)
  const id = options.id ?? serverMessageId('3A')
  const copy = proto.Message.fromObject({
    deviceSentMessage: { destinationJid, message: built.message },
    ...(built.message.messageContextInfo ? { messageContextInfo: built.message.messageContextInfo } : {}),
  })
  const attrs: Record<string, string> = lid
    ? { from: account.lidJid, recipient: contact.lidJid, peer_recipient_pn: contact.pnJid, addressing_mode: 'lid' }
    : { from: account.pnJid, recipient: contact.pnJid, peer_recipient_lid: contact.lidJid }
  const t = unixNow()
  const encrypt = async (): Promise<BinaryNode> => {
    const { type, ciphertext } = await account.primaryDevice.encrypt(
      companionPeerName(account),
      () => account.takeBundle(),
      copy,
    )
    return {
      tag: 'message',
      attrs: { ...attrs, id, t, type: built.type, notify: `Account ${account.phone}` },
      content: [
        {
          tag: 'enc',
          attrs: { v: '2', type, ...(built.mediatype ? { mediatype: built.mediatype } : {}) },
          content: ciphertext,
        },
      ],
    }
  }
  const node = await encrypt()
  // The companion's copy waits in its offline queue like any 1:1 message until it is acknowledged.
  if (account.linked) {
    account.unacknowledged.set(id, { node, reencrypt: encrypt })
    state.liveConnectionOf(account)?.sendNode(node)
  }
  // The contact gets the message itself.
  contact.inbox.push({
    id,
    from: account.phone,
    chat: contact.pnJid,
    message: built.message,
    timestamp: Date.now(),
    stanza: stanzaInfoOf({ tag: 'message', attrs: { ...attrs, type: built.type } }),
  })
  account.sentMessageIds.add(id)
  account.chats.add(contact.phone).add(contact.lid)
  return id
}

/** What the phone builds: any message a contact could send, a poll, or a reaction from its own point of view. */
const phoneContent = async (
  state: SimState,
  account: Account,
  contact: Contact,
  content: ContactContent,
  chatJid: string,
): Promise<BuiltContent> => {
  if ('poll' in content) return { message: pollMessage(content.poll), type: 'poll' }
  if ('vote' in content) throw new SimulatorError('unsupported', 'the phone does not vote here', 400)
  if ('react' in content) {
    const { messageId, emoji } = content.react
    const fromMe = account.sentMessageIds.has(messageId)
    if (!fromMe && !contact.sent.has(messageId))
      throw new SimulatorError('unknown_message', `no message ${messageId} in this chat`, 404)
    return {
      message: proto.Message.fromObject({
        reactionMessage: {
          key: { remoteJid: chatJid, fromMe, id: messageId },
          text: emoji,
          senderTimestampMs: Date.now(),
        },
      }),
      type: 'reaction',
    }
  }
  return buildContent(state, account, contact, content)
}
