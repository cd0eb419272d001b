// Contact cards as a phone shares them: one vCard 3.0 per person (contactMessage), or several in a
// contactsArrayMessage. A raw `vcard` is sent as given, for tests of what a gateway makes of it.
import { proto } from '@whiskeysockets/baileys'

export interface SharedContact {
  name: string
  /** Numbers as people write them; WhatsApp numbers get their `waid`. */
  phones?: string[]
  organization?: string
  /** The card's text as is, instead of one built from the fields above. */
  vcard?: string
}

export interface ContactsContent {
  contacts: SharedContact[]
}

/** vCard 3.0 text escaping (RFC 2426 §5): backslash, comma, semicolon and newlines. */
const escapeText = (value: string): string =>
  value.replace(/\\/g, '\\\\').replace(/,/g, '\\,').replace(/;/g, '\\;').replace(/\r?\n/g, '\\n')

export const vcardOf = (contact: SharedContact): string => {
  if (contact.vcard !== undefined) return contact.vcard
  const lines = ['BEGIN:VCARD', 'VERSION:3.0', `N:;${escapeText(contact.name)};;;`, `FN:${escapeText(contact.name)}`]
  if (contact.organization) lines.push(`ORG:${escapeText(contact.organization)};`)
  for (const phone of contact.phones ?? []) {
    const digits = phone.replace(/\D/g, '')
    lines.push(`TEL;type=CELL;type=VOICE;waid=${digits}:${phone}`)
  }
  lines.push('END:VCARD')
  return lines.join('\n')
}

/** One card is a contactMessage (stanza mediatype `vcard`); more are a contactsArrayMessage (`contact_array`). */
export const buildContacts = (content: ContactsContent): { message: proto.Message; mediatype: string } => {
  const cards = content.contacts.map((contact) => ({ displayName: contact.name, vcard: vcardOf(contact) }))
  if (cards.length === 1) return { message: proto.Message.fromObject({ contactMessage: cards[0] }), mediatype: 'vcard' }
  const displayName = `${cards.length} contacts`
  return {
    message: proto.Message.fromObject({ contactsArrayMessage: { displayName, contacts: cards } }),
    mediatype: 'contact_array',
  }
}
