/** A person from a shared contact card: the name to show and the numbers on it (digits). */
export interface CardContact {
  name: string
  phones: string[]
}

/** Bounds on what one shared card may contribute: a card is the sender's text, of any size. */
const MAX_PHONES = 20
const MAX_NAME = 256

/** RFC 2426 §5 text unescaping: `\n`, `\,`, `\;`, `\\`. */
const unescapeText = (value: string) =>
  value.replace(/\\([nN,;\\])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c))

/** The name parts of `N:family;given;additional;prefix;suffix`, in reading order. */
function structuredName(value: string): string {
  const [family = '', given = '', additional = '', prefix = '', suffix = ''] = value.split(/(?<!\\);/).map(unescapeText)
  return [prefix, given, additional, family, suffix]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' ')
}

/**
 * Pure: a vCard (2.1/3.0/4.0, as phones share them) → its name and numbers. Folded lines are
 * unfolded; `FN` wins over `N`, and `fallbackName` (the message's displayName) over nothing.
 * A number is the card's `waid` (WhatsApp's id for it) when given, else the digits of the value;
 * values without digits are left out. Anything unreadable yields what could be read.
 */
export function parseVcard(text: string, fallbackName = ''): CardContact {
  const lines = text
    .replace(/\r\n|\r/g, '\n')
    .replace(/\n[ \t]/g, '')
    .split('\n')
  let formatted: string | undefined
  let structured: string | undefined
  const phones: string[] = []
  for (const line of lines) {
    const colon = line.indexOf(':')
    if (colon < 0) continue
    // `item1.TEL;type=CELL;waid=155…` → property TEL with its parameters
    const [property = '', ...params] = line.slice(0, colon).split(';')
    const name = property.replace(/^[^.]*\./, '').toUpperCase()
    const value = line.slice(colon + 1)
    if (name === 'FN' && formatted === undefined) formatted = unescapeText(value).trim()
    else if (name === 'N' && structured === undefined) structured = structuredName(value)
    else if (name === 'TEL' && phones.length < MAX_PHONES) {
      const waid = params.map((p) => /^waid=(\d{1,20})$/i.exec(p.trim())?.[1]).find(Boolean)
      const digits = waid ?? value.replace(/\D/g, '').slice(0, 20)
      if (digits && !phones.includes(digits)) phones.push(digits)
    }
  }
  const name = (formatted || structured || fallbackName).slice(0, MAX_NAME)
  return { name, phones }
}
