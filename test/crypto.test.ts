import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { sha256, sha256Hex } from '../src/crypto'

describe('sha256Hex', () => {
  it('is SHA-256 of the UTF-8 bytes, in lowercase hex (the FIPS 180-2 vector, then non-ASCII input)', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    const text = 'wag_ключ_🔑'
    expect(sha256Hex(text)).toBe(createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex'))
    expect(sha256Hex(text)).toBe(sha256(text).toString('hex'))
  })
})
