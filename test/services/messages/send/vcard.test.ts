import ICAL from 'ical.js'
import { describe, expect, it } from 'vitest'
import { buildVcard } from '../../../../src/services/messages/send/vcard'

const parse = (text: string) => new ICAL.Component(ICAL.parse(text) as unknown[])
const card = (name: string, organization?: string) => ({
  name,
  phones: [{ input: '+1 555 000 0001', digits: '15550000001' }],
  ...(organization ? { organization } : {}),
})

/** Pure mapping: every value read back by an independent vCard parser (ical.js) as it was given. */
describe('vCard 3.0 of a contact card', () => {
  it.each([
    'Plain Name',
    'Doe; John',
    'Doe, John',
    'back\\slash\\',
    '\\n is not a newline',
    'two\nlines',
    '🎉 émoji 👩‍👩‍👧 名字',
    ';,;\\,\\;',
  ])('round-trips the name %j in FN, N and ORG', (name) => {
    const vcard = parse(buildVcard(card(name, name)))
    expect(vcard.getFirstPropertyValue('fn')).toBe(name)
    expect(vcard.getFirstPropertyValue('n')).toEqual(name)
    expect(vcard.getFirstPropertyValue('org')).toBe(name)
  })

  it('is one CRLF-ended line per property, none carrying a raw newline', () => {
    const text = buildVcard({ ...card('a\nb'), email: 'a@example.com' })
    expect(text.endsWith('END:VCARD\r\n')).toBe(true)
    expect(text.split('\r\n').filter(Boolean)).toEqual([
      'BEGIN:VCARD',
      'VERSION:3.0',
      'N:a\\nb',
      'FN:a\\nb',
      'TEL;type=CELL;type=VOICE;waid=15550000001:+15550000001',
      'EMAIL;type=INTERNET:a@example.com',
      'END:VCARD',
    ])
  })
})
