import { randomBytes } from 'node:crypto'
import { Curve } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import {
  installSignatureChecks,
  rememberPassing,
  type SignatureCheck,
  strictCheck,
} from '../../../../src/engine/whatsapp/socket/signature-checks'

const signed = (text: string) => {
  const keys = Curve.generateKeyPair()
  const message = Buffer.from(text)
  return { key: keys.public, message, signature: Curve.sign(keys.private, message) }
}

/** The strict check behind a counter of the checks actually run. */
const counted = () => {
  const counter = { runs: 0 }
  const check: SignatureCheck = (...args) => {
    counter.runs++
    return strictCheck(...args)
  }
  return { check: rememberPassing(check), counter }
}

describe('XEdDSA signature checks', () => {
  it('are strict: a forged signature fails (Baileys rc14’s own Curve.verify passes it)', () => {
    const chain = signed('intermediate certificate')
    const forged = Buffer.from(chain.signature)
    forged[10]! ^= 1
    expect(strictCheck(chain.key, chain.message, chain.signature)).toBe(true)
    expect(strictCheck(chain.key, chain.message, forged)).toBe(false)
    expect(strictCheck(chain.key, chain.message, randomBytes(64))).toBe(false)
    expect(strictCheck(chain.key, chain.message, randomBytes(12))).toBe(false)
  })

  it('are installed on Baileys’ Curve once, strict and remembered', () => {
    const original = Curve.verify
    try {
      const chain = signed('leaf certificate')
      expect(original(chain.key, chain.message, randomBytes(64))).toBe(true) // the rc14 bug this closes
      installSignatureChecks(Curve)
      const installed = Curve.verify
      installSignatureChecks(Curve)
      expect(Curve.verify).toBe(installed)
      expect(Curve.verify(chain.key, chain.message, randomBytes(64))).toBe(false)
      expect(Curve.verify(chain.key, chain.message, chain.signature)).toBe(true)
    } finally {
      Curve.verify = original
    }
  })

  it('run a passing check once, then answer it from memory', () => {
    const { check, counter } = counted()
    const chain = signed('x')
    for (let i = 0; i < 5; i++) expect(check(chain.key, chain.message, chain.signature)).toBe(true)
    expect(counter.runs).toBe(1)
  })

  it('never remember a failure, nor pass another message, key or signature on a remembered one', () => {
    const { check, counter } = counted()
    const chain = signed('leaf certificate')
    expect(check(chain.key, chain.message, chain.signature)).toBe(true)
    const forged = Buffer.from(chain.signature)
    forged[63]! ^= 0x10
    const other = signed('leaf certificate')
    for (let i = 0; i < 2; i++) {
      expect(check(chain.key, chain.message, forged)).toBe(false)
      expect(check(chain.key, Buffer.from('leaf certificatf'), chain.signature)).toBe(false)
      expect(check(other.key, chain.message, chain.signature)).toBe(false)
    }
    expect(counter.runs).toBe(1 + 6)
  })

  it('key by every byte: a message moved into the signature does not collide', () => {
    const { check } = counted()
    const chain = signed('abc')
    expect(check(chain.key, chain.message, chain.signature)).toBe(true)
    const shifted = Buffer.concat([chain.message, chain.signature.subarray(0, 1)])
    expect(check(chain.key, shifted, chain.signature.subarray(1))).toBe(false)
  })

  it('remember a bounded number, the oldest forgotten first', () => {
    const { check, counter } = counted()
    const chains = Array.from({ length: 17 }, (_, i) => signed(`chain ${i}`))
    for (const c of chains) check(c.key, c.message, c.signature)
    check(chains[16]!.key, chains[16]!.message, chains[16]!.signature)
    expect(counter.runs).toBe(17)
    check(chains[0]!.key, chains[0]!.message, chains[0]!.signature)
    expect(counter.runs).toBe(18)
  })
})
