// What a contact's phone does towards an account: send text or media (Signal-encrypted to the
// client's uploaded bundle), send receipts, and offer calls.
import { getMediaKeys, hmacSign, proto, sha256 } from '@whiskeysockets/baileys'
import type { BinaryNode } from '@whiskeysockets/baileys'
import { createCipheriv, randomBytes } from 'node:crypto'
import type { Account } from './account'
import { accountPeerName } from './client-messages'
import type { Contact } from './contact'
import { SimulatorError } from './errors'
import { serverMessageId, unixNow } from './node-utils'
import type { SimState } from './state'

export type ReceiptType = 'delivered' | 'read' | 'played'

export type OutgoingContent = { text: string } | { image: Buffer; mimetype: string; caption?: string }

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

export const sendToAccount = async (state: SimState, account: Account, contact: Contact, content: OutgoingContent, options: SendOptions = {}): Promise<string> => {
  const connection = liveConnection(state, account)
  const message = 'text' in content ? proto.Message.fromObject({ conversation: content.text }) : await imageMessage(state, content)
  const { type, ciphertext } = await contact.device.encrypt(accountPeerName(account), () => account.takeBundle(), message)
  const id = options.id ?? serverMessageId('3A')
  const addressing: Record<string, string> = options.fromLid ? { from: contact.lidJid, sender_pn: contact.pnJid, addressing_mode: 'lid' } : { from: contact.pnJid, sender_lid: contact.lidJid }
  const encAttrs: Record<string, string> = { v: '2', type, ...('image' in content ? { mediatype: 'image' } : {}) }
  connection.sendNode({
    tag: 'message',
    attrs: { ...addressing, type: 'text' in content ? 'text' : 'media', id, t: unixNow(), notify: `Contact ${contact.phone}` },
    content: [{ tag: 'enc', attrs: encAttrs, content: ciphertext }],
  })
  return id
}

/** Encrypts the image as WhatsApp media (AES-CBC + truncated HMAC), stores it on the media host. */
const imageMessage = async (state: SimState, content: { image: Buffer; mimetype: string; caption?: string }): Promise<proto.Message> => {
  const mediaKey = randomBytes(32)
  const { iv, cipherKey, macKey } = await getMediaKeys(mediaKey, 'image')
  const cipher = createCipheriv('aes-256-cbc', cipherKey, iv)
  const encrypted = Buffer.concat([cipher.update(content.image), cipher.final()])
  const mac = hmacSign(Buffer.concat([iv, encrypted]), macKey!).subarray(0, 10)
  const body = Buffer.concat([encrypted, mac])
  const stored = state.media.store(body, '/mms/image')
  return proto.Message.fromObject({
    imageMessage: {
      url: state.media.urlFor(stored.directPath),
      directPath: stored.directPath,
      mimetype: content.mimetype,
      caption: content.caption,
      mediaKey,
      fileSha256: sha256(content.image),
      fileEncSha256: sha256(body),
      fileLength: content.image.length,
      mediaKeyTimestamp: Number(unixNow()),
    },
  })
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
