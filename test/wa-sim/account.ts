// One linked WhatsApp account: the phone number the simulated phone owns, its LID, the companion
// device Baileys runs as, and what the simulator learned about that device.
import { defaultPrivacy } from './iq-handlers/privacy'
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { ClientReceipt, PresenceSignal } from './account-signals'
import type { CurveKeyPair } from './certificates'
import type { Connection } from './connection'
import type { PreKeyBundle } from './signal-device'
import { SignalDevice } from './signal-device'
import { WaitableLog } from './waitable-log'

export interface AccountStats {
  /** Noise handshakes completed as this account (logins, including refused ones) */
  connections: number
  /** Logins answered with <success> */
  logins: number
  usyncQueries: number
  messagesReceived: number
  /** Queries answered (or swallowed by the unresponsive fault); keep-alive pings are not counted */
  iqs: number
  /** The same queries by `xmlns` and first child's tag ("w:g2 query"): says which one a count check caught */
  iqsBy: Record<string, number>
  /** Group metadata queries (w:g2 get <query>): what a send without cached metadata costs */
  groupMetadataQueries: number
}

/** A copy a test can hold while the account's counters move on. */
export const copyStats = (stats: AccountStats): AccountStats => ({ ...stats, iqsBy: { ...stats.iqsBy } })

export interface CallRecord {
  callId: string
  from: string
  /** What the client answered: 'reject', 'accept', ... (undefined while only offered) */
  response?: string
  /** The caller hung up */
  ended?: boolean
}

/** A 1:1 message relayed to the device and not acknowledged by it yet. */
export interface Unacknowledged {
  node: BinaryNode
  /** Encrypts the message again (the next counter of the contact's session), as a phone answers a retry receipt. */
  reencrypt(): Promise<BinaryNode>
}

/**
 * What the companion asked for at pairing (ClientPayload.devicePairingData.deviceProps): a full
 * sync (RECENT and FULL chunks after the bootstrap) and, for it, a day limit.
 */
export interface HistoryRequest {
  requireFullSync: boolean
  fullSyncDaysLimit?: number
}

/** One history-sync notification the phone sent, and which receipts the device answered it with. */
export interface HistoryNotificationRecord {
  id: string
  syncType: string
  chunkOrder: number
  progress: number
  /** Messages in the chunk (0 for push names and hand-made blobs) */
  messages: number
  /** Receipt types the device sent for it: 'peer_msg', then 'hist_sync' once processed */
  receipts: Set<string>
  /** The error of the device's nack (`<ack class=message error=…>`): it could not process the chunk */
  nack?: string
}

export class Account {
  /** The phone's own device 0, so the client can encrypt its device-sent copies to it */
  readonly primaryDevice = new SignalDevice()
  linked = true
  /** Set by the refuse-login fault: logins get <failure reason=401> until cleared */
  refuseLogin = false
  /** Set by the unresponsive fault: iqs and messages are swallowed (never answered, never relayed) until cleared */
  unresponsive = false
  /** Set by the unreachable fault: login attempts are dropped without an answer until cleared */
  unreachable = false
  /** Set by the phone-offline fault: the account's phone answers no media retry request */
  phoneOffline = false
  /** Set by the restrict-new-chats fault: 1:1 messages to users it has no chat with get error 463 */
  restrictNewChats = false
  /** Whether the phone already shared its app-state key with this device (once, after linking) */
  appStateKeyShared = false
  /** What the device asked of history at pairing (set when linked) */
  historyRequest: HistoryRequest = { requireFullSync: false }
  /** Whether the phone started sending its history to this device (once, after linking) */
  historySyncStarted = false
  /** The history-sync notifications sent to this device, in order (history-send.ts) */
  readonly historySent: HistoryNotificationRecord[] = []
  /** Peer messages the phone sent this device, by id: what its peer_msg / hist_sync receipts may name */
  readonly peerMessages = new Map<string, 'app-state-key' | 'history-sync'>()
  /** Users (phone or LID) this account has a chat with: it wrote to them or they wrote to it */
  readonly chats = new Set<string>()
  connection: Connection | undefined
  bundle: PreKeyBundle | undefined
  uploadedPreKeyCount = 0
  /** Ids of messages this account's client sent, for edit/revoke reference checks */
  readonly sentMessageIds = new Set<string>()
  /** Group jid -> device jids that already hold this device's sender key */
  readonly senderKeyHolders = new Map<string, Set<string>>()
  readonly calls: CallRecord[] = []
  /** Receipts the client sent for messages it received (delivered, read, read-self…) */
  readonly receipts = new WaitableLog<ClientReceipt>()
  /** <presence> and <chatstate> updates the client sent */
  readonly presence = new WaitableLog<PresenceSignal>()
  /** The account's privacy settings by WhatsApp's category name (last, readreceipts…), as the privacy iq answers them */
  readonly privacy: Record<string, string> = defaultPrivacy()
  /**
   * WhatsApp's offline queue for this device: every 1:1 message relayed to it, by stanza id,
   * until the device answers it with a delivery receipt. What is still here when the device
   * logs in again is relayed again, marked `offline`, before the <ib><offline> marker.
   */
  readonly unacknowledged = new Map<string, Unacknowledged>()
  readonly stats: AccountStats = {
    connections: 0,
    logins: 0,
    usyncQueries: 0,
    messagesReceived: 0,
    iqs: 0,
    iqsBy: {},
    groupMetadataQueries: 0,
  }
  /** Prekeys are handed out once each, as the real server does */
  private nextPreKeyIndex = 0

  constructor(
    readonly phone: string,
    readonly lid: string,
    readonly deviceId: number,
    readonly noisePublic: Uint8Array,
    readonly identityPublic: Uint8Array,
    readonly accountKey: CurveKeyPair,
  ) {}

  get pnJid(): string {
    return `${this.phone}@s.whatsapp.net`
  }

  get lidJid(): string {
    return `${this.lid}@lid`
  }

  get deviceLidJid(): string {
    return `${this.lid}:${this.deviceId}@lid`
  }

  /** The client's uploaded bundle with one fresh one-time prekey, for a contact starting a session. */
  takeBundle(): PreKeyBundle {
    if (!this.bundle) throw new Error(`account ${this.phone} has not uploaded prekeys yet`)
    const preKey = this.bundle.preKeys[this.nextPreKeyIndex++ % this.bundle.preKeys.length]
    return { ...this.bundle, preKeys: preKey ? [preKey] : [] }
  }
}
