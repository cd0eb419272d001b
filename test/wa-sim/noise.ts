// Server (responder) side of WhatsApp's Noise_XX_25519_AESGCM_SHA256 handshake.
// Mirrors Baileys' Utils/noise-handler.js so both ends derive the same keys.
import { aesDecryptGCM, aesEncryptGCM, hkdf, NOISE_MODE, NOISE_WA_HEADER, sha256 } from '@whiskeysockets/baileys'

const EMPTY = Buffer.alloc(0)

const ivFor = (counter: number): Buffer => {
  const iv = Buffer.alloc(12)
  iv.writeUInt32BE(counter, 8)
  return iv
}

interface TransportKeys {
  encKey: Buffer
  decKey: Buffer
  writeCounter: number
  readCounter: number
}

export class ServerNoise {
  private hash: Buffer
  private salt: Buffer
  private encKey: Buffer
  private decKey: Buffer
  private counter = 0
  private transport: TransportKeys | undefined

  constructor() {
    // NOISE_MODE is exactly 32 bytes, so it is used as the initial hash as-is
    this.hash = Buffer.from(NOISE_MODE)
    this.salt = this.encKey = this.decKey = this.hash
    this.authenticate(NOISE_WA_HEADER)
  }

  authenticate(data: Uint8Array): void {
    if (!this.transport) this.hash = Buffer.from(sha256(Buffer.concat([this.hash, data])))
  }

  encrypt(plaintext: Uint8Array): Buffer {
    if (this.transport) {
      return Buffer.from(aesEncryptGCM(plaintext, this.transport.encKey, ivFor(this.transport.writeCounter++), EMPTY))
    }
    const ciphertext = Buffer.from(aesEncryptGCM(plaintext, this.encKey, ivFor(this.counter++), this.hash))
    this.authenticate(ciphertext)
    return ciphertext
  }

  decrypt(ciphertext: Uint8Array): Buffer {
    if (this.transport) {
      return Buffer.from(aesDecryptGCM(ciphertext, this.transport.decKey, ivFor(this.transport.readCounter++), EMPTY))
    }
    const plaintext = Buffer.from(aesDecryptGCM(ciphertext, this.decKey, ivFor(this.counter++), this.hash))
    this.authenticate(ciphertext)
    return plaintext
  }

  mixIntoKey(data: Uint8Array): void {
    const key = Buffer.from(hkdf(Buffer.from(data), 64, { salt: this.salt, info: '' }))
    this.salt = key.subarray(0, 32)
    this.encKey = this.decKey = key.subarray(32)
    this.counter = 0
  }

  /** The client writes with the first half and reads with the second, so the server mirrors it. */
  finishHandshake(): void {
    const key = Buffer.from(hkdf(EMPTY, 64, { salt: this.salt, info: '' }))
    this.transport = { encKey: key.subarray(32), decKey: key.subarray(0, 32), writeCounter: 0, readCounter: 0 }
  }

  get inTransport(): boolean {
    return this.transport !== undefined
  }
}
