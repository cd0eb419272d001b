import type { ContactCardInput } from '../../../schemas/contact-card'

/**
 * A text value as a vCard writes it: backslash, comma and newline escaped everywhere, and the
 * semicolon too in structured values (N, ORG), where it separates components. A single-valued
 * FN keeps its semicolons as they are: vCard 4 parsers (RFC 6350 §3.4) read `\;` there as two
 * characters, while vCard 3 parsers take a plain `;` in FN as itself, so this form reads back
 * the same in both (a name like `Doe; John, "\o/"`, or one on two lines).
 */
export function escapeVcardText(value: string, { structured = false } = {}): string {
  const special = structured ? /[\\,;\n]/g : /[\\,\n]/g
  return value.replace(special, (char) => (char === '\n' ? '\\n' : `\\${char}`))
}

/**
 * Pure: one contact card as the vCard 3.0 WhatsApp phones send. Each TEL carries `waid`, the
 * number's WhatsApp id, which is what makes "Message" and "Add" work on the contact's phone.
 * Lines are not folded (WhatsApp's own cards are not), so no UTF-8 character is ever split.
 */
export function buildVcard(card: ContactCardInput): string {
  const structured = { structured: true }
  const lines = [
    'BEGIN:VCARD',
    'VERSION:3.0',
    // N is structured (family;given;…): the whole name is its one component, the family part. No
    // empty components follow: a name ending in `\` would end in `\\;`, which naive parsers misread.
    `N:${escapeVcardText(card.name, structured)}`,
    `FN:${escapeVcardText(card.name)}`,
    ...(card.organization ? [`ORG:${escapeVcardText(card.organization, structured)}`] : []),
    ...card.phones.map((phone) => `TEL;type=CELL;type=VOICE;waid=${phone.digits}:+${phone.digits}`),
    ...(card.email ? [`EMAIL;type=INTERNET:${escapeVcardText(card.email)}`] : []),
    'END:VCARD',
  ]
  return `${lines.join('\r\n')}\r\n`
}
