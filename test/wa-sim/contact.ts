// A simulated contact: a phone number, a LID, one real Signal device, group sender keys and an
// inbox of what it decrypted from the accounts' clients.
import { encodeWAMessage, proto, unpadRandomMax16 } from '@whiskeysockets/baileys'
import {
  GroupCipher,
  GroupSessionBuilder,
  SenderKeyDistributionMessage,
  SenderKeyName,
  SenderKeyRecord,
} from '@whiskeysockets/baileys/lib/Signal/Group/index.js'
import { SignalDevice } from './signal-device'
import type { StanzaInfo } from './stanza-info'
import { WaitableLog } from './waitable-log'

export interface InboxMessage {
  /** The stanza id, which is Baileys' key.id of the sent message */
  id: string
  /** The account phone that sent it */
  from: string
  /** The chat: the contact's own jid for 1:1, the group jid for groups */
  chat: string
  /** The payload exactly as the contact decrypted it (wrappers such as viewOnceMessage kept) */
  message: proto.IMessage
  timestamp: number
  stanza: StanzaInfo
}

/** A message this contact sent to an account. */
export interface SentMessage {
  account: string
  chat: string
  message: proto.IMessage
  /** The phone no longer has the file: a media retry is answered NOT_FOUND. */
  mediaLost?: boolean
}

export class Contact {
  readonly device = new SignalDevice()
  readonly inbox = new WaitableLog<InboxMessage>()
  /** What this contact sent to accounts, by message id: for quotes, edits and revokes of its own messages */
  readonly sent = new Map<string, SentMessage>()
  /** What subscribers of this contact's presence are told (contact-presence.ts) */
  readonly presence = { online: false, lastSeen: Date.now(), lastSeenShared: true }
  /** `${groupJid} ${account device}` pairs that already hold this contact's own sender key */
  readonly ownSenderKeyHolders = new Set<string>()
  // Records live in memory only, so they are kept as objects rather than serialized
  private readonly senderKeys = new Map<string, SenderKeyRecord>()
  private readonly senderKeyStore = {
    loadSenderKey: async (name: SenderKeyName) => this.senderKeys.get(name.toString()) ?? new SenderKeyRecord(),
    storeSenderKey: async (name: SenderKeyName, record: SenderKeyRecord) => {
      this.senderKeys.set(name.toString(), record)
    },
  }

  constructor(
    readonly phone: string,
    readonly lid: string,
  ) {}

  get pnJid(): string {
    return `${this.phone}@s.whatsapp.net`
  }

  get lidJid(): string {
    return `${this.lid}@lid`
  }

  /** Stores the sender key an account's device distributed for a group. */
  async processSenderKey(groupJid: string, senderName: string, skdm: Uint8Array): Promise<void> {
    const name = new SenderKeyName(groupJid, { id: senderName, deviceId: 0, toString: () => `${senderName}.0` })
    const message = new SenderKeyDistributionMessage(null, null, null, null, skdm)
    await new GroupSessionBuilder(this.senderKeyStore).process(name, message)
  }

  /** This contact's own sender key for a group, as the distribution message its members need. */
  async ownSenderKeyDistribution(groupJid: string): Promise<Uint8Array> {
    return (await new GroupSessionBuilder(this.senderKeyStore).create(this.ownSenderKeyName(groupJid))).serialize()
  }

  /** A group message from this contact (skmsg), under its own sender key. */
  async encryptGroup(groupJid: string, message: proto.IMessage): Promise<Uint8Array> {
    return new GroupCipher(this.senderKeyStore, this.ownSenderKeyName(groupJid)).encrypt(encodeWAMessage(message))
  }

  private ownSenderKeyName(groupJid: string): SenderKeyName {
    return new SenderKeyName(groupJid, {
      id: `self_${this.phone}`,
      deviceId: 0,
      toString: () => `self_${this.phone}.0`,
    })
  }

  async decryptGroup(groupJid: string, senderName: string, ciphertext: Uint8Array): Promise<proto.IMessage> {
    const name = new SenderKeyName(groupJid, { id: senderName, deviceId: 0, toString: () => `${senderName}.0` })
    const padded = await new GroupCipher(this.senderKeyStore, name).decrypt(ciphertext)
    return proto.Message.decode(unpadRandomMax16(padded))
  }
}
