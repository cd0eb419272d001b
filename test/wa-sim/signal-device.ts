// One simulated WhatsApp device with a real libsignal identity: a contact's phone or an
// account's primary phone (device 0). It answers prekey fetches and decrypts/encrypts 1:1 traffic.
import {
  Curve,
  encodeWAMessage,
  generateRegistrationId,
  generateSignalPubKey,
  proto,
  signedKeyPair,
  unpadRandomMax16,
} from '@whiskeysockets/baileys'
import libsignal from 'libsignal'
import type { SignalStorage } from 'libsignal'
import type { CurveKeyPair } from './certificates'

/** What a client uploaded in `iq xmlns=encrypt type=set` (or what a device offers for prekey fetches). */
export interface PreKeyBundle {
  registrationId: number
  identity: Uint8Array
  signedPreKey: { id: number; public: Uint8Array; signature: Uint8Array }
  preKeys: { id: number; public: Uint8Array }[]
}

export type EncType = 'pkmsg' | 'msg'

export class SignalDevice {
  readonly identity: CurveKeyPair = Curve.generateKeyPair()
  readonly registrationId = generateRegistrationId()
  /**
   * Made on first use: its signature costs ~8 ms in pure JS, and a seeded history creates
   * hundreds of contacts most of which never serve a bundle (1,000 chats: 8 s saved).
   */
  private signedPreKeyMade: ReturnType<typeof signedKeyPair> | undefined
  private get signedPreKey(): ReturnType<typeof signedKeyPair> {
    this.signedPreKeyMade ??= signedKeyPair(this.identity, 1)
    return this.signedPreKeyMade
  }
  private readonly preKey: CurveKeyPair = Curve.generateKeyPair()
  private readonly preKeyId = 1
  private readonly sessions = new Map<string, Uint8Array>()
  private readonly storage: SignalStorage

  constructor() {
    this.storage = {
      loadSession: async (id) => {
        const stored = this.sessions.get(id)
        return stored ? libsignal.SessionRecord.deserialize(stored) : undefined
      },
      storeSession: async (id, session) => {
        this.sessions.set(id, session.serialize())
      },
      // Trust on first use, as a phone does for a new contact
      isTrustedIdentity: () => true,
      loadPreKey: async (id) => (Number(id) === this.preKeyId ? this.keyPair(this.preKey) : undefined),
      removePreKey: () => {},
      loadSignedPreKey: () => this.keyPair(this.signedPreKey.keyPair),
      getOurRegistrationId: () => this.registrationId,
      getOurIdentity: () => ({
        privKey: Buffer.from(this.identity.private),
        pubKey: Buffer.from(generateSignalPubKey(this.identity.public)),
      }),
    }
  }

  private keyPair(pair: CurveKeyPair): { privKey: Buffer; pubKey: Buffer } {
    return { privKey: Buffer.from(pair.private), pubKey: Buffer.from(pair.public) }
  }

  /** The bundle served for `iq xmlns=encrypt <key><user jid/></key>`. */
  get bundle(): PreKeyBundle {
    return {
      registrationId: this.registrationId,
      identity: this.identity.public,
      signedPreKey: {
        id: this.signedPreKey.keyId,
        public: this.signedPreKey.keyPair.public,
        signature: this.signedPreKey.signature,
      },
      preKeys: [{ id: this.preKeyId, public: this.preKey.public }],
    }
  }

  /**
   * Forgets every session, as a phone does when it resets a chat's encryption (reinstall, restore,
   * a broken session): its next message to a peer starts a new session from a fresh bundle (a
   * pkmsg), and the peer's libsignal closes the one it held.
   */
  forgetSessions(): void {
    this.sessions.clear()
  }

  /** Decrypts a 1:1 `<enc>` from the peer named `peer` and returns the raw (unpadded) plaintext. */
  async decrypt(peer: string, type: string, ciphertext: Uint8Array): Promise<Uint8Array> {
    const cipher = new libsignal.SessionCipher(this.storage, new libsignal.ProtocolAddress(peer, 0))
    const padded =
      type === 'pkmsg'
        ? await cipher.decryptPreKeyWhisperMessage(ciphertext)
        : await cipher.decryptWhisperMessage(ciphertext)
    return unpadRandomMax16(padded)
  }

  async decryptMessage(peer: string, type: string, ciphertext: Uint8Array): Promise<proto.IMessage> {
    return proto.Message.decode(await this.decrypt(peer, type, ciphertext))
  }

  /** Encrypts for `peer`, starting a session from `bundle` when none exists (first message is a pkmsg). */
  async encrypt(
    peer: string,
    bundle: () => PreKeyBundle,
    message: proto.IMessage,
  ): Promise<{ type: EncType; ciphertext: Buffer }> {
    const address = new libsignal.ProtocolAddress(peer, 0)
    if (!this.sessions.has(address.toString())) {
      const remote = bundle()
      const preKey = remote.preKeys[0]
      await new libsignal.SessionBuilder(this.storage, address).initOutgoing({
        registrationId: remote.registrationId,
        identityKey: generateSignalPubKey(remote.identity),
        signedPreKey: {
          keyId: remote.signedPreKey.id,
          publicKey: generateSignalPubKey(remote.signedPreKey.public),
          signature: remote.signedPreKey.signature,
        },
        preKey: { keyId: preKey?.id ?? 0, publicKey: generateSignalPubKey(preKey?.public ?? new Uint8Array(32)) },
      })
    }
    const { type, body } = await new libsignal.SessionCipher(this.storage, address).encrypt(encodeWAMessage(message))
    return { type: type === 3 ? 'pkmsg' : 'msg', ciphertext: Buffer.from(body, 'binary') }
  }
}
