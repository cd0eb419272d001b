import { createHash } from 'node:crypto'
import { generateSignalPubKey } from '@whiskeysockets/baileys'
import { verifySignature } from 'libsignal/src/curve.js'

/**
 * The XEdDSA signature checks Baileys runs through its exported `Curve.verify`: WhatsApp's
 * certificate chain at every Noise handshake (intermediate by the pinned root key, leaf by the
 * intermediate) and the account's signature at pairing.
 *
 * Strict: rc14's `Curve.verify` ignores libsignal's boolean and only fails on malformed input,
 * so any 64 bytes pass as a signature and the chain pins nothing (upstream knows:
 * WhiskeySockets/Baileys#2067). Here a check passes only when the signature verifies, as in
 * whatsmeow, which checks the same chain against the same root key.
 *
 * Remembered: the check runs in pure JavaScript (about 4–11 ms on this machine) and the chain
 * is the same for every session, so a restart of thousands of sessions spent a third of its CPU
 * on the same two checks (`npm run bench -- --only scale`, profile in docs/benchmarks.md). A
 * check is a pure function of (key, message, signature): the last few that passed are kept by
 * the SHA-256 of all three. A failure is never remembered.
 */
export type SignatureCheck = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => boolean

/** Distinct passing checks kept: WhatsApp rotates its chain rarely; pairings add one each. */
const REMEMBERED = 16
const INSTALLED = Symbol.for('wa-gateway.signature-checks')

export const strictCheck: SignatureCheck = (publicKey, message, signature) => {
  try {
    return verifySignature(generateSignalPubKey(publicKey), message, signature) === true
  } catch {
    return false // malformed key or signature
  }
}

const keyOf = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): string =>
  createHash('sha256')
    .update(`${publicKey.length}:${message.length}:`)
    .update(publicKey)
    .update(message)
    .update(signature)
    .digest('base64')

/** `check`, remembering the last `REMEMBERED` inputs that passed. */
export function rememberPassing(check: SignatureCheck): SignatureCheck {
  const passed = new Set<string>()
  return (publicKey, message, signature) => {
    const key = keyOf(publicKey, message, signature)
    if (passed.has(key)) return true
    const valid = check(publicKey, message, signature)
    if (valid) {
      if (passed.size >= REMEMBERED) passed.delete(passed.values().next().value as string)
      passed.add(key)
    }
    return valid
  }
}

/**
 * Replaces `curve.verify` (Baileys' `Curve`, the object its Noise handler and pairing call) with
 * the strict, remembered check. Once per process: every gateway in it shares the one check,
 * which holds only hashes of public data.
 */
export function installSignatureChecks(curve: { verify: SignatureCheck }): void {
  const current = curve.verify as SignatureCheck & { [INSTALLED]?: true }
  if (current[INSTALLED]) return
  curve.verify = Object.assign(rememberPassing(strictCheck), { [INSTALLED]: true as const })
}
