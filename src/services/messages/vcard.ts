import type { ContactCardInput } from '../../schemas/contact-card'

/**
 * A text value as vCard 3.0 writes it (RFC 2426 §4): backslash, comma, semicolon and newline
 * escaped, so a name like `Doe; John, "\o/"` or one on two lines is read back exactly.
 */
export function escapeVcardText(value: string): string {
  return value.replace(/[\\,;\n]/g, (char) => (char === '\n' ? '\\n' : `\\${char}`))
}

/**
 * Pure: one contact card as the vCard 3.0 WhatsApp phones send. Each TEL carries `waid`, the
 * number's WhatsApp id, which is what makes "Message" and "Add" work on the contact's phone.
 * Lines are not folded (WhatsApp's own cards are not), so no UTF-8 character is ever split.
 */
export function buildVcard(card: ContactCardInput): string {
  const name = escapeVcardText(card.name)
  const lines = [
    'BEGIN:VCARD',
    'VERSION:3.0',
    // N is structured (family;given;…): the whole name is the family part, escaped like any text.
    `N:${name};;;;`,
    `FN:${name}`,
    ...(card.organization ? [`ORG:${escapeVcardText(card.organization)}`] : []),
    ...card.phones.map((phone) => `TEL;type=CELL;type=VOICE;waid=${phone.digits}:+${phone.digits}`),
    ...(card.email ? [`EMAIL;type=INTERNET:${escapeVcardText(card.email)}`] : []),
    'END:VCARD',
  ]
  return `${lines.join('\r\n')}\r\n`
}
