import { randomBytes } from 'node:crypto'
import { inspect } from 'node:util'
import { describe, expect, it } from 'vitest'
import { redactArgument, redactText } from '../src/console-redaction'

/** What libsignal 6's `console.info("Closing session:", session)` printed: a SessionEntry, keys as Buffers. */
class SessionEntry {
  _chains = {
    [randomBytes(33).toString('base64')]: {
      chainKey: { counter: 0, key: randomBytes(32) },
      chainType: 2,
      messageKeys: {},
    },
  }
  registrationId = 207
  currentRatchet = {
    ephemeralKeyPair: { pubKey: randomBytes(33), privKey: randomBytes(32) },
    lastRemoteEphemeralKey: randomBytes(33),
    previousCounter: 0,
    rootKey: randomBytes(32),
  }
  indexInfo = { baseKey: randomBytes(33), baseKeyType: 1, closed: -1, used: 1, created: 1 }
}

const secretsOf = (session: SessionEntry) => [
  session.currentRatchet.ephemeralKeyPair.privKey,
  session.currentRatchet.rootKey,
  ...Object.values(session._chains).map((chain) => chain.chainKey.key),
]

/** Every way inspect or a string could show the bytes. */
const spellings = (secret: Buffer) => [
  secret.toString('base64').slice(0, 24),
  secret.toString('hex').slice(0, 24),
  [...secret.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join(' '),
  [...secret.subarray(0, 8)].join(', '),
]

describe('redactArgument', () => {
  it('leaves nothing of a Signal session a formatter could print as a key', () => {
    const session = new SessionEntry()
    const printed = inspect(redactArgument(session), { depth: null })
    for (const secret of secretsOf(session))
      for (const spelled of spellings(secret)) expect(printed).not.toContain(spelled)
    // Its plain fields stay, so the line still says something.
    expect(redactArgument(session)).toMatchObject({
      registrationId: 207,
      currentRatchet: { previousCounter: 0, rootKey: '[redacted]', ephemeralKeyPair: '[redacted]' },
      indexInfo: { baseKey: '[redacted]', baseKeyType: 1, closed: -1 },
    })
  })

  it('turns every kind of byte array into its length, wherever it sits', () => {
    const bytes = randomBytes(32)
    expect(
      redactArgument({
        buffer: bytes,
        view: new Uint8Array(bytes),
        words: new Uint32Array(2),
        raw: bytes.buffer.slice(0, 16),
        nested: [new Map([['k', { data: new DataView(new ArrayBuffer(4)) }]]), new Set([bytes])],
      }),
    ).toEqual({
      buffer: '[32 bytes]',
      view: '[32 bytes]',
      words: '[8 bytes]',
      raw: '[16 bytes]',
      nested: [new Map([['k', { data: '[4 bytes]' }]]), new Set(['[32 bytes]'])],
    })
  })

  it('redacts fields named like secrets but keeps numbers and flags (keyId, closed)', () => {
    expect(
      redactArgument({
        privKey: 'abc',
        signedPreKey: { keyId: 7 },
        advSecretKey: 'c2VjcmV0',
        token: { value: 'x' },
        authorization: 'Bearer wag_x',
        keyId: 7,
        hasKey: true,
        jid: '15550000001@s.whatsapp.net',
      }),
    ).toEqual({
      privKey: '[redacted]',
      signedPreKey: '[redacted]',
      advSecretKey: '[redacted]',
      token: '[redacted]',
      authorization: '[redacted]',
      keyId: 7,
      hasKey: true,
      jid: '15550000001@s.whatsapp.net',
    })
  })

  it('survives cycles, throwing getters, huge and deep values, within bounds', () => {
    const cyclic: Record<string, unknown> = { name: 'a' }
    cyclic.self = cyclic
    expect(redactArgument(cyclic)).toEqual({ name: 'a', self: '[Circular]' })

    const throwing = Object.defineProperty({}, 'boom', {
      enumerable: true,
      get() {
        throw new Error('no')
      },
    })
    expect(redactArgument(throwing)).toEqual({ boom: '[unreadable]' })

    expect((redactArgument(Array.from({ length: 10_000 }, (_, i) => i)) as unknown[]).length).toBe(100)
    let deep: Record<string, unknown> = {}
    for (let i = 0; i < 50; i++) deep = { inner: deep }
    expect(JSON.stringify(redactArgument(deep))).toContain('[…]')

    // One shared object under every field of every level: copied once per path, yet bounded.
    const shared: Record<string, unknown> = {}
    for (let i = 0; i < 100; i++) shared[`f${i}`] = i
    let wide: Record<string, unknown> = shared
    for (let level = 0; level < 6; level++)
      wide = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`l${i}`, wide]))
    const started = performance.now()
    expect(inspect(redactArgument(wide), { depth: null }).length).toBeLessThan(100_000)
    expect(performance.now() - started).toBeLessThan(2_000)
    const manyLongStrings = Array.from({ length: 100 }, () => Array.from({ length: 100 }, () => 'x'.repeat(20_000)))
    expect(inspect(redactArgument(manyLongStrings), { depth: null, maxStringLength: null }).length).toBeLessThan(
      500_000,
    )
  })

  it('redacts an error through its stack text', () => {
    const key = randomBytes(32).toString('base64')
    const redacted = redactArgument(new Error(`Bad MAC for ${key}`)) as string
    expect(redacted).toMatch(/^Error: Bad MAC for \[redacted\]\n\s+at /)
  })
})

describe('redactText', () => {
  it('hides keys written as base64, base64url, hex and inspected Buffers', () => {
    const key = randomBytes(32)
    for (const text of [
      `session ${key.toString('base64')} closed`,
      `session ${key.toString('base64url')} closed`,
      `session ${key.toString('hex')} closed`,
      `session ${inspect(key)} closed`,
      `session ${[...key].map((b) => b.toString(16).padStart(2, '0')).join(' ')} closed`,
    ])
      expect(redactText(text)).toBe('session [redacted] closed')
  })

  it('keeps ordinary text: paths, ids, numbers and words', () => {
    const text =
      'at SessionCipher.decryptWithSessions (/work/app/node_modules/libsignal/src/session_cipher.js:157:17) ' +
      'message 3EB0A9ED42AB25756E374C from 15550071001@s.whatsapp.net: Failed to decrypt message with any known session'
    expect(redactText(text)).toBe(text)
  })

  it('bounds what one string may print', () => {
    expect(redactText('a '.repeat(50_000)).length).toBeLessThan(10_100)
  })
})
