import { describe, expect, it } from 'vitest'
import { readMediaToken, signMediaToken, verifyMediaToken } from '../../../src/services/media/signed-url'

const claims = { workspace: 'acme', sessionId: 'ses_1', messageId: '3A1', expiresAt: 2_000_000_000 }
const secret = 'a-secret'

describe('media tokens', () => {
  it('verify with their secret until they expire', () => {
    const token = signMediaToken(claims, secret)
    expect(verifyMediaToken(token, secret, new Date(1_999_999_999_000))).toEqual({ ok: true, claims })
    expect(verifyMediaToken(token, secret, new Date(2_000_000_000_000))).toEqual({ ok: false, reason: 'expired' })
    expect(verifyMediaToken(token, 'another secret', new Date(0))).toEqual({ ok: false, reason: 'invalid' })
  })

  it('refuse any change of claims or signature, any other spelling of the same bytes, and junk', () => {
    const token = signMediaToken(claims, secret)
    const [body, signature] = token.split('.') as [string, string]
    const changed = signMediaToken({ ...claims, messageId: '3A2' }, secret).split('.')[0]
    // base64url of 32 bytes ends in a character with 2 unused bits: spell it another way
    const last = signature.at(-1)!
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    const sibling = alphabet[alphabet.indexOf(last) ^ 1]!
    for (const bad of [
      `${changed}.${signature}`,
      `${body}.${signature.slice(0, -1)}${sibling}`,
      `${body}.${signature}.`,
      `${body}`,
      '.',
      '',
      `${body}.${'A'.repeat(2000)}`,
    ])
      expect(verifyMediaToken(bad, secret, new Date(0)), bad).toEqual({ ok: false, reason: 'invalid' })
  })

  it('read (unverified, for routing) only what is shaped like claims', () => {
    expect(readMediaToken(signMediaToken(claims, secret))).toEqual(claims)
    const encode = (value: unknown) => `${Buffer.from(JSON.stringify(value)).toString('base64url')}.x`
    for (const bad of [[1, 2, 3, 4], ['a', 'b', 'c'], ['a', 'b', 'c', 1.5], { a: 1 }, 'x'])
      expect(readMediaToken(encode(bad))).toBeUndefined()
    expect(readMediaToken('%%%.x')).toBeUndefined()
    expect(readMediaToken('a'.repeat(5000))).toBeUndefined()
  })
})
