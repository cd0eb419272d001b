import { describe, expect, it } from 'vitest'
import { parseVcard } from '../../../../src/engine/whatsapp/messages/vcard'

describe('parseVcard', () => {
  it('reads the name and the WhatsApp id of each number, as phones share cards', () => {
    const card = [
      'BEGIN:VCARD',
      'VERSION:3.0',
      'N:Silva;Ana;;;',
      'FN:Ana Silva',
      'item1.TEL;waid=351912345678:+351 912 345 678',
      'item1.X-ABLabel:Mobile',
      'TEL;type=HOME:(555) 010-0000',
      'END:VCARD',
    ].join('\r\n')
    expect(parseVcard(card)).toEqual({ name: 'Ana Silva', phones: ['351912345678', '5550100000'] })
  })

  it('unescapes text, unfolds folded lines, and builds the name from N when there is no FN', () => {
    expect(parseVcard('BEGIN:VCARD\nFN:Ops\\; Sales\\, EMEA\\nFloor 2\nEND:VCARD').name).toBe(
      'Ops; Sales, EMEA\nFloor 2',
    )
    expect(parseVcard('BEGIN:VCARD\nN:Doe;John;Q;Dr.;Jr\nTEL:+1 555\n 123 0001\nEND:VCARD')).toEqual({
      name: 'Dr. John Q Doe Jr',
      phones: ['15551230001'],
    })
  })

  it('falls back to the display name; reads what it can of garbage; bounds what a card contributes', () => {
    expect(parseVcard('', 'Shown name')).toEqual({ name: 'Shown name', phones: [] })
    expect(parseVcard('not a card at all\n:::\nTEL:no digits', 'x')).toEqual({ name: 'x', phones: [] })
    const many = Array.from({ length: 500 }, (_, i) => `TEL:+1 555 ${String(i).padStart(7, '0')}`).join('\n')
    const huge = parseVcard(`FN:${'n'.repeat(100_000)}\n${many}\nTEL;waid=${'9'.repeat(5000)}:1`)
    expect(huge.name.length).toBe(256)
    expect(huge.phones).toHaveLength(20)
    expect(parseVcard('TEL:1\nTEL:+1\nTEL;waid=1:x').phones).toEqual(['1'])
  })
})
