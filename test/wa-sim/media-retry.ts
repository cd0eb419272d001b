// The phone's side of a media retry (Baileys' updateMediaMessage): when a linked device finds a
// file gone from the CDN it sends its own phone `<receipt type="server-error">` naming the message,
// with `<rmr>` (the message key) and `<encrypt>` (ServerErrorReceipt{stanzaId} under AES-GCM with
// HKDF(mediaKey, "WhatsApp Media Retry Notification"), the id as additional data). The phone
// uploads the file again and answers `<notification type="mediaretry">` carrying
// MediaRetryNotification{stanzaId, directPath, result} under the same key. What a phone could not
// act on (a malformed or misaddressed request, keys that do not open it) is a violation and
// goes unanswered; a phone that is offline (fault) answers nothing; one that lost the file answers
// NOT_FOUND.
import { aesDecryptGCM, aesEncryptGCM, hkdf, proto } from '@whiskeysockets/baileys'
import type { BinaryNode } from '@whiskeysockets/baileys'
import { randomBytes } from 'node:crypto'
import type { Account } from './account'
import type { Connection } from './connection'
import type { Contact, SentMessage } from './contact'
import { mediaAttachmentOf } from './inbox-media'
import { childOf, contentBytes, unixNow } from './node-utils'
import type { SimState } from './state'

const retryKey = (mediaKey: Uint8Array): Buffer =>
  Buffer.from(hkdf(mediaKey, 32, { info: 'WhatsApp Media Retry Notification' }))

/** The contact message a retry names: one some contact sent to this account. */
const sentTo = (state: SimState, account: Account, id: string): { contact: Contact; sent: SentMessage } | undefined => {
  for (const contact of state.contacts.values()) {
    const sent = contact.sent.get(id)
    if (sent?.account === account.phone) return { contact, sent }
  }
  return undefined
}

/** The chat (and author) the device knows the message by: PN or LID addressed, 1:1 or group. */
const keyMatches = (rmr: BinaryNode, contact: Contact, sent: SentMessage): boolean => {
  const { jid, from_me: fromMe, participant } = rmr.attrs
  if (fromMe !== 'false') return false
  if (sent.chat.endsWith('@g.us'))
    return jid === sent.chat && (participant === contact.lidJid || participant === contact.pnJid)
  return (jid === contact.pnJid || jid === contact.lidJid) && !participant
}

export async function onMediaRetryReceipt(
  state: SimState,
  connection: Connection,
  account: Account,
  node: BinaryNode,
): Promise<void> {
  const id = node.attrs.id ?? ''
  const refuse = (why: string) =>
    state.violations.record(account.phone, 'invalid-media-retry', `media retry ${id}: ${why}`)
  if (node.attrs.to !== account.pnJid)
    return refuse(`addressed to ${node.attrs.to}, not the account's own ${account.pnJid}`)
  const found = sentTo(state, account, id)
  if (!found) return refuse('no contact sent this account such a message')
  const rmr = childOf(node, 'rmr')
  if (!rmr || !keyMatches(rmr, found.contact, found.sent))
    return refuse(`<rmr> ${JSON.stringify(rmr?.attrs ?? null)} is not the key of the message`)
  const attachment = mediaAttachmentOf(found.sent.message)
  if (!attachment?.media.mediaKey || !attachment.media.directPath) return refuse('the message carries no media')
  const key = retryKey(attachment.media.mediaKey)
  const encrypt = childOf(node, 'encrypt')
  const ciphertext = contentBytes(childOf(encrypt, 'enc_p'))
  const iv = contentBytes(childOf(encrypt, 'enc_iv'))
  if (!ciphertext || !iv) return refuse('no <encrypt><enc_p/><enc_iv/>')
  try {
    const receipt = proto.ServerErrorReceipt.decode(aesDecryptGCM(ciphertext, key, iv, Buffer.from(id)))
    if (receipt.stanzaId !== id) return refuse(`the encrypted receipt names ${receipt.stanzaId}`)
  } catch {
    return refuse('<enc_p> does not open with the media key of the message')
  }
  if (account.phoneOffline) return // nobody there to upload it again

  const Result = proto.MediaRetryNotification.ResultType
  const reuploaded = found.sent.mediaLost ? undefined : state.media.reupload(attachment.media.directPath)
  if (reuploaded) {
    // The phone's copy of the message now points at the new upload
    attachment.media.directPath = reuploaded.directPath
    attachment.media.url = state.media.urlFor(reuploaded.directPath)
  }
  const notification = proto.MediaRetryNotification.encode({
    stanzaId: id,
    ...(reuploaded ? { directPath: reuploaded.directPath, result: Result.SUCCESS } : { result: Result.NOT_FOUND }),
  }).finish()
  const answerIv = randomBytes(12)
  connection.sendNode({
    tag: 'notification',
    attrs: { from: account.pnJid, type: 'mediaretry', id, t: unixNow() },
    content: [
      { tag: 'rmr', attrs: { ...rmr.attrs } },
      {
        tag: 'encrypt',
        attrs: {},
        content: [
          { tag: 'enc_p', attrs: {}, content: aesEncryptGCM(notification, key, answerIv, Buffer.from(id)) },
          { tag: 'enc_iv', attrs: {}, content: answerIv },
        ],
      },
    ],
  })
}
