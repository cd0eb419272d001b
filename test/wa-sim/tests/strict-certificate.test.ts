// Canary: rc14's Curve.verify ignores libsignal's boolean, so any certificate signature passes.
// Make it strict here; the simulator must still be trusted through WA_CERT_DETAILS.PUBLIC_KEY, and
// refused without that override. If a Baileys upgrade changes either, this fails loudly.
import makeWASocket, { Curve, WA_CERT_DETAILS } from '@whiskeysockets/baileys'
import { verifySignature } from 'libsignal/src/curve.js'
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { simulatorBaileysOptions } from '../baileys-options'
import { WhatsAppSimulator } from '../simulator'
import { memoryAuth, silent } from './harness'

const WHATSAPP_ROOT_KEY = Buffer.from(WA_CERT_DETAILS.PUBLIC_KEY)
const lenientVerify = Curve.verify

const strictVerify = (pubKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean => {
  try {
    return verifySignature(Buffer.concat([Buffer.from([5]), pubKey]), message, signature) === true
  } catch {
    return false
  }
}

/** Connects a fresh client; 'qr' means the handshake (and so the certificate chain) was accepted. */
const attempt = (
  wsUrl: string,
  fetchAgent: ReturnType<typeof simulatorBaileysOptions>['fetchAgent'],
): Promise<string> =>
  new Promise((resolve) => {
    const auth = memoryAuth()
    const sock = makeWASocket({
      waWebSocketUrl: wsUrl,
      fetchAgent,
      auth: { creds: auth.creds, keys: auth.keys },
      logger: silent,
    })
    sock.ev.on('connection.update', (update) => {
      if (update.qr) {
        resolve('qr')
        sock.end(undefined)
      } else if (update.connection === 'close') resolve(`close: ${update.lastDisconnect?.error?.message}`)
    })
  })

describe('certificate chain under a strict Curve.verify', () => {
  let sim: WhatsAppSimulator
  beforeAll(async () => {
    sim = await WhatsAppSimulator.start()
    Curve.verify = strictVerify
  })
  afterAll(async () => {
    Curve.verify = lenientVerify
    WA_CERT_DETAILS.PUBLIC_KEY = WHATSAPP_ROOT_KEY
    await sim.stop()
  })

  it('the strict verify really rejects a bad signature (rc14 alone would accept it)', () => {
    const keys = Curve.generateKeyPair()
    expect(lenientVerify(keys.public, Buffer.from('x'), randomBytes(64))).toBe(true)
    expect(Curve.verify(keys.public, Buffer.from('x'), randomBytes(64))).toBe(false)
    expect(Curve.verify(keys.public, Buffer.from('x'), Curve.sign(keys.private, Buffer.from('x')))).toBe(true)
  })

  it('connects when WA_CERT_DETAILS.PUBLIC_KEY is the simulator root key', async () => {
    const options = simulatorBaileysOptions(sim.config)
    expect(Buffer.from(WA_CERT_DETAILS.PUBLIC_KEY).toString('base64')).toBe(sim.config.rootPublicKey)
    expect(await attempt(options.waWebSocketUrl, options.fetchAgent)).toBe('qr')
  })

  it('is refused with the real WhatsApp root key', async () => {
    const options = simulatorBaileysOptions(sim.config)
    WA_CERT_DETAILS.PUBLIC_KEY = WHATSAPP_ROOT_KEY
    const outcome = await attempt(options.waWebSocketUrl, options.fetchAgent)
    expect(outcome).not.toBe('qr')
    expect(outcome).toMatch(/^close: /)
  })
})
