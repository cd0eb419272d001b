import { describe, expect, it } from 'vitest'
import { chatAddress, phoneDigits, phoneNumber, sendAddress } from '../../src/schemas/phone'

describe('phoneNumber', () => {
  it.each([
    ['15551230001', '15551230001'],
    ['+1 555-123-0001', '15551230001'],
    ['(1555) 1230001', '15551230001'],
    ['1555.123.0001', '15551230001'],
    ['+44 7700 900003', '447700900003'],
    ['123456', '123456'],
    ['123456789012345', '123456789012345'],
  ])('accepts %j as digits %s, keeping the input', (input, digits) => {
    expect(phoneNumber.parse(input)).toEqual({ input, digits })
    expect(phoneDigits.parse(input)).toBe(digits)
  })

  it.each([
    ['too few digits', '+1 555'],
    ['too many digits', '1234567890123456'],
    ['letters', '1555abc0001'],
    ['a + not in front', '1+5551230001'],
    ['a slash', '1555/1230001'],
    ['a newline', '15551230001\n'],
    ['empty', ''],
    ['only separators', '(-.-)'],
    ['a group id', '120363025246125888@g.us'],
  ])('refuses %s', (_, input) => {
    expect(phoneNumber.safeParse(input).success).toBe(false)
  })

  it('names the rule and quotes at most ~40 characters of a bad value', () => {
    const result = phoneNumber.safeParse('9'.repeat(10_000))
    expect(result.success).toBe(false)
    const message = result.error!.issues[0]!.message
    expect(message).toMatch(/not a phone number/)
    expect(message.length).toBeLessThan(200)
  })
})

describe('chatAddress', () => {
  it('takes a phone number in any accepted formatting, with its JID', () => {
    expect(chatAddress.parse('+1 555-123-0001')).toEqual({
      kind: 'phone',
      input: '+1 555-123-0001',
      digits: '15551230001',
      jid: '15551230001@s.whatsapp.net',
    })
  })

  it.each(['120363025246125888@g.us', '15551230001-1600000000@g.us'])('takes the group id %s', (input) => {
    expect(chatAddress.parse(input)).toEqual({ kind: 'group', input, jid: input })
  })

  it('takes a LID', () => {
    expect(chatAddress.parse('123456789012345@lid')).toEqual({
      kind: 'lid',
      input: '123456789012345@lid',
      jid: '123456789012345@lid',
    })
  })

  it.each([
    ['a user JID of another server', '15551230001@s.whatsapp.net'],
    ['a group id with letters', 'abc@g.us'],
    ['a group id with three parts', '1-2-3@g.us'],
    ['an upper-case server', '123@G.US'],
    ['a LID with a device', '123:4@lid'],
    ['a short number', '12345'],
    ['text', 'hello'],
  ])('refuses %s', (_, input) => {
    const result = chatAddress.safeParse(input)
    expect(result.success).toBe(false)
    expect(result.error!.issues[0]!.message).toMatch(/not a chat address/)
  })
})

describe('sendAddress', () => {
  it('takes a channel (<digits>@newsletter) besides every chat address', () => {
    const channel = '120363025246125888@newsletter'
    expect(sendAddress.parse(channel)).toEqual({ kind: 'channel', input: channel, jid: channel })
    for (const input of ['+1 555-123-0001', '120363025246125888@g.us', '123456789@lid'])
      expect(sendAddress.parse(input)).toEqual(chatAddress.parse(input))
  })

  it.each([
    ['too short', '1234@newsletter'],
    ['too long', `${'9'.repeat(31)}@newsletter`],
    ['letters', '12345abc@newsletter'],
    ['a suffix', '123456789@newsletter.evil'],
    ['a space', ' 123456789@newsletter'],
  ])('refuses a channel id with %s, naming channels in its message', (_, input) => {
    const parsed = sendAddress.safeParse(input)
    expect(parsed.success).toBe(false)
    expect(parsed.error!.issues[0]!.message).toContain('<digits>@newsletter')
  })

  it('is not what chats take: chatAddress refuses a channel', () => {
    expect(chatAddress.safeParse('120363025246125888@newsletter').success).toBe(false)
  })
})
