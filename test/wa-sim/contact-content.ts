// The payloads a contact's phone builds: text (optionally quoting a message), location, media
// (contact-media.ts), contact cards (contact-card.ts), and the protocol messages a phone sends to
// edit or revoke one of its own messages.
import { proto } from '@whiskeysockets/baileys'
import type { Account } from './account'
import type { Contact } from './contact'
import { buildContacts, type ContactsContent } from './contact-card'
import { buildMedia, isMediaContent, type MediaContent } from './contact-media'
import type { SimState } from './state'

export interface LocationContent {
  latitude: number
  longitude: number
  name?: string
  address?: string
}

export type OutgoingContent =
  | { text: string; quoteId?: string }
  | { location: LocationContent }
  | MediaContent
  | ContactsContent

/** The payload, with the <message type> and <enc mediatype> a phone gives it. */
export interface BuiltContent {
  message: proto.Message
  type: 'text' | 'media' | 'poll' | 'reaction'
  mediatype?: string
}

export const buildContent = async (
  state: SimState,
  account: Account,
  contact: Contact,
  content: OutgoingContent,
): Promise<BuiltContent> => {
  if ('location' in content) {
    const { latitude, longitude, name, address } = content.location
    const message = proto.Message.fromObject({
      locationMessage: { degreesLatitude: latitude, degreesLongitude: longitude, name, address },
    })
    return { message, type: 'media', mediatype: 'location' }
  }
  if (isMediaContent(content)) return { ...(await buildMedia(state, content)), type: 'media' }
  if ('contacts' in content) return { ...buildContacts(content), type: 'media' }
  if (!content.quoteId) return { message: proto.Message.fromObject({ conversation: content.text }), type: 'text' }
  // A reply is an extendedTextMessage whose contextInfo names the quoted message and its author
  const contextInfo = quoteContext(account, contact, content.quoteId)
  return {
    message: proto.Message.fromObject({ extendedTextMessage: { text: content.text, contextInfo } }),
    type: 'text',
  }
}

const quoteContext = (account: Account, contact: Contact, quoteId: string): proto.IContextInfo => {
  const received = contact.inbox.list().find((entry) => entry.id === quoteId)
  const ownMessage = contact.sent.get(quoteId)
  // A phone quotes what it has; without the original it still sends the reference
  const quoted = received?.message ?? ownMessage?.message
  const quotedMessage = quoted
    ? proto.Message.fromObject({
        ...proto.Message.toObject(proto.Message.fromObject(quoted)),
        messageContextInfo: undefined,
      })
    : { conversation: '' }
  return { stanzaId: quoteId, participant: ownMessage && !received ? contact.pnJid : account.pnJid, quotedMessage }
}

/** What a phone sends to edit its own message in `chat`: MESSAGE_EDIT wrapped as editedMessage (stanza edit="1"). */
export const editMessage = (chat: string, messageId: string, text: string): proto.Message =>
  proto.Message.fromObject({
    editedMessage: {
      message: {
        protocolMessage: {
          key: { remoteJid: chat, fromMe: true, id: messageId },
          type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
          editedMessage: { conversation: text },
          timestampMs: Date.now(),
        },
      },
    },
  })

/** What a phone sends to delete its own message in `chat` for everyone: REVOKE (stanza edit="7"). */
export const revokeMessage = (chat: string, messageId: string): proto.Message =>
  proto.Message.fromObject({
    protocolMessage: {
      key: { remoteJid: chat, fromMe: true, id: messageId },
      type: proto.Message.ProtocolMessage.Type.REVOKE,
    },
  })
