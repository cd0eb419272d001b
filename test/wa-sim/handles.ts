// The per-contact and per-account views the public API hands out.
import { STATUS_JID } from './node-utils'
import { type Account, type AccountStats, type CallRecord, copyStats } from './account'
import { PhoneLabels } from './labels'
import type { ClientReceipt, PresenceSignal } from './account-signals'
import type { Contact, InboxMessage } from './contact'
import {
  editOwnMessage,
  endCall,
  offerCall,
  postStatus,
  revokeOwnMessage,
  sendReceipt,
  sendToAccount,
} from './contact-actions'
import type { OutgoingContent } from './contact-content'
import { sendChatState, setContactPresence, type ContactChatState } from './contact-presence'
import type { ContactContent, ReceiptType, SendOptions } from './contact-actions'
import { SimulatorError } from './errors'
import { clearFaults, injectFault } from './faults'
import type { FaultKind } from './faults'
import { mediaAttachmentOf, openInboxMedia } from './inbox-media'
import type { OpenedMedia } from './inbox-media'
import { downloadAndDecryptMedia } from './media-download'
import { sendFromPhone, type PhoneSendOptions } from './phone-send'
import type { MediaType, proto } from '@whiskeysockets/baileys'
import type { SimState } from './state'
import { blockedUsers } from './iq-handlers/blocklist'
import { sendHistoryBlob, type HistoryBlob } from './history-blob'

export interface HistorySentView {
  id: string
  syncType: string
  chunkOrder: number
  progress: number
  messages: number
  acknowledged: boolean
  receipts: string[]
  /** Set when the device nacked it instead (the error code): Baileys does when processing it threw */
  nack?: string
}

export const waitUntil = async <T>(probe: () => T | undefined, timeoutMs: number, what: string): Promise<T> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

export interface ContactSendOptions extends SendOptions {
  /** The account phone to send to; defaults to the only (or last messaging) account */
  to?: string
}

export class ContactHandle {
  constructor(
    private readonly state: SimState,
    private readonly contact: Contact,
  ) {}

  get phone(): string {
    return this.contact.phone
  }

  get lid(): string {
    return this.contact.lid
  }

  /**
   * Sends text (optionally quoting `quoteId`), a location, an image, a poll, a vote or a reaction
   * to an account's client; resolves with the message id.
   */
  send(content: ContactContent, options: ContactSendOptions = {}): Promise<string> {
    return sendToAccount(this.state, this.targetAccount(options.to), this.contact, content, options)
  }

  /** Edits a message this contact sent earlier; resolves with the id of the edit's protocol message. */
  edit(messageId: string, text: string, options: ContactSendOptions = {}): Promise<string> {
    return editOwnMessage(
      this.state,
      this.targetAccount(options.to ?? this.contact.sent.get(messageId)?.account),
      this.contact,
      messageId,
      text,
      options,
    )
  }

  /** Deletes a message this contact sent earlier for everyone; resolves with the id of the revoke. */
  revoke(messageId: string, options: ContactSendOptions = {}): Promise<string> {
    return revokeOwnMessage(
      this.state,
      this.targetAccount(options.to ?? this.contact.sent.get(messageId)?.account),
      this.contact,
      messageId,
      options,
    )
  }

  /**
   * The contact's phone resets its Signal sessions (reinstall, restore): its next message to an
   * account starts a new session (a pkmsg from a fresh prekey) and the account's client closes the
   * session it held. Until then an account's message on the old session does not decrypt (an
   * `undecryptable-message` violation; WhatsApp's retry receipts are not simulated).
   */
  resetSignalSessions(): void {
    this.contact.device.forgetSessions()
  }

  /** A receipt for a message the account sent to this contact (or to a group or status it sees). */
  receipt(messageId: string, type: ReceiptType, to?: string): void {
    const received = this.contact.inbox.list().find((message) => message.id === messageId)
    const account = this.targetAccount(to ?? received?.from)
    const chat = received?.chat
    const shared = chat && (chat.endsWith('@g.us') || chat === STATUS_JID) ? chat : undefined
    sendReceipt(this.state, account, this.contact, messageId, type, shared)
  }

  /** Offers a voice call to an account; resolves with the call id. */
  call(to?: string): string {
    return offerCall(this.state, this.targetAccount(to), this.contact)
  }

  /** Posts a status (story) an account sees (it comes from status@broadcast); resolves with its id. */
  postStatus(content: OutgoingContent, to?: string): Promise<string> {
    return postStatus(this.state, this.targetAccount(to), this.contact, content)
  }

  /** Hangs up a call this contact offered. */
  hangUp(callId: string, to?: string): void {
    endCall(this.state, this.targetAccount(to), this.contact, callId)
  }

  /**
   * Comes online or goes offline (`lastSeen: 'hidden'`: its privacy hides when it was last
   * seen): connections subscribed to its presence are told.
   */
  setPresence(state: 'available' | 'unavailable', options: { lastSeen?: 'shared' | 'hidden' } = {}): void {
    const shared = options.lastSeen === undefined ? undefined : options.lastSeen === 'shared'
    setContactPresence(this.state, this.contact, state === 'available', shared)
  }

  /** Types (or records, or stops) in its chat with an account; answers whether the client was told (it subscribed). */
  chatState(state: ContactChatState, to?: string): boolean {
    return sendChatState(this.state, this.targetAccount(to), this.contact, state)
  }

  /** Downloads a received media message from the media host and decrypts it, as the phone would. */
  downloadMedia(media: proto.Message.IImageMessage, type: MediaType = 'image'): Promise<Buffer> {
    return downloadAndDecryptMedia(media, type, (path) => this.state.media.urlFor(path), this.state.media.tls.caPem)
  }

  /** The decrypted, MAC- and SHA-checked media of a message this contact received (any media type). */
  media(messageId: string): Promise<OpenedMedia> {
    const entry = this.contact.inbox.list().find((message) => message.id === messageId)
    return openInboxMedia(entry, messageId, this.state.media)
  }

  inbox(): InboxMessage[] {
    return this.contact.inbox.list()
  }

  /** The file of a media message this contact sent: its current direct path and how often the CDN served it. */
  sentMedia(messageId: string): { directPath: string; downloads: number } {
    const directPath = this.sentAttachment(messageId).directPath!
    return { directPath, downloads: this.state.media.downloads.get(directPath) ?? 0 }
  }

  /**
   * WhatsApp's CDN drops the file of a message this contact sent: downloads answer `status`.
   * A media retry then gets it uploaded again by the phone, unless `reupload: false` (the phone
   * lost it too and answers NOT_FOUND) or the account's phone is offline (fault `phone-offline`).
   */
  expireMedia(messageId: string, options: { status?: 404 | 410; reupload?: boolean } = {}): void {
    this.state.media.expire(this.sentAttachment(messageId).directPath!, options.status ?? 410)
    this.contact.sent.get(messageId)!.mediaLost = options.reupload === false
  }

  /** Downloads of the file of a message this contact sent wait until the returned function is called. */
  holdMedia(messageId: string): () => void {
    return this.state.media.hold(this.sentAttachment(messageId).directPath!)
  }

  private sentAttachment(messageId: string) {
    const sent = this.contact.sent.get(messageId)
    if (!sent) throw new SimulatorError('unknown_message', `${this.phone} never sent message ${messageId}`, 404)
    const media = mediaAttachmentOf(sent.message)?.media
    if (!media?.directPath) throw new SimulatorError('no_media', `message ${messageId} carries no media`, 404)
    return media
  }

  /** First inbox message (already received or future) matching `predicate`. */
  waitForMessage(
    predicate: (message: InboxMessage) => boolean = () => true,
    timeoutMs = 10_000,
  ): Promise<InboxMessage> {
    return this.contact.inbox.waitFor(predicate, timeoutMs, `a message in ${this.phone}'s inbox`)
  }

  private targetAccount(phone: string | undefined): Account {
    if (phone) {
      const account = this.state.accounts.get(phone)
      if (!account) throw new SimulatorError('unknown_account', `no account ${phone}`, 404)
      return account
    }
    const lastSender = this.contact.inbox.list().at(-1)?.from
    const linked = [...this.state.accounts.values()].filter((account) => account.linked)
    const account = (lastSender && this.state.accounts.get(lastSender)) || (linked.length === 1 ? linked[0] : undefined)
    if (!account) throw new SimulatorError('ambiguous_account', 'say which account to address with `to`')
    return account
  }
}

export class AccountHandle {
  constructor(
    private readonly state: SimState,
    private readonly account: Account,
  ) {}

  get phone(): string {
    return this.account.phone
  }

  get lid(): string {
    return this.account.lid
  }

  get deviceId(): number {
    return this.account.deviceId
  }

  /** False once the client logged out or the device was removed. */
  get linked(): boolean {
    return this.account.linked
  }

  get online(): boolean {
    return this.state.liveConnectionOf(this.account) !== undefined
  }

  stats(): AccountStats {
    return copyStats(this.account.stats)
  }

  fault(kind: FaultKind): void {
    injectFault(this.state, this.account, kind)
  }

  clearFaults(): void {
    clearFaults(this.account)
  }

  calls(): CallRecord[] {
    return this.account.calls.map((call) => ({ ...call }))
  }

  /** Receipts the client sent for messages it received, oldest first ('delivered', 'read', 'read-self'…). */
  receipts(): ClientReceipt[] {
    return this.account.receipts.list()
  }

  /** First receipt (past or future) matching `predicate`. */
  waitForReceipt(predicate: (receipt: ClientReceipt) => boolean, timeoutMs = 10_000): Promise<ClientReceipt> {
    return this.account.receipts.waitFor(predicate, timeoutMs, `a receipt from ${this.phone}`)
  }

  /** <presence> and <chatstate> updates the client sent, oldest first. */
  presence(): PresenceSignal[] {
    return this.account.presence.list()
  }

  /** First presence update (past or future) matching `predicate`. */
  waitForPresence(predicate: (signal: PresenceSignal) => boolean, timeoutMs = 10_000): Promise<PresenceSignal> {
    return this.account.presence.waitFor(predicate, timeoutMs, `a presence update from ${this.phone}`)
  }

  /** The phone's read-receipt privacy setting ('none': clients send read-self receipts), from the next connection on. */
  setReadReceipts(setting: 'all' | 'none'): void {
    this.account.privacy.readreceipts = setting
  }

  /** The phones whose presence the account's live connection subscribed to. */
  presenceSubscriptions(): string[] {
    return [...(this.state.liveConnectionOf(this.account)?.presenceSubscriptions.keys() ?? [])]
  }

  /** The account's privacy settings as WhatsApp keeps them, by category (last, online, readreceipts…). */
  privacy(): Record<string, string> {
    return { ...this.account.privacy }
  }

  /** The users this account blocked, as its block list names them. */
  blocked(): { phone: string; lid: string }[] {
    return blockedUsers(this.state, this.account.phone)
  }

  /** The account's business labels as its phone keeps them, and the phone changing them. */
  get labels(): PhoneLabels {
    return new PhoneLabels(this.state, this.account)
  }

  /** Resolves once the device acknowledged the app-state key its phone shares after linking (it needs it to change its name). */
  waitForAppStateKey(timeoutMs = 10_000): Promise<true> {
    const account = this.account
    return waitUntil(
      () =>
        account.appStateKeyShared &&
        ![...account.unacknowledged.keys()].some((id) => account.peerMessages.get(id) === 'app-state-key')
          ? true
          : undefined,
      timeoutMs,
      `${this.phone}'s device to take the app-state key`,
    )
  }

  /**
   * The history-sync notifications the phone sent this device, in order: `acknowledged` once the
   * device sent its hist_sync receipt (Baileys does after processing the chunk), `receipts` the
   * receipt types it sent for it ('peer_msg', 'hist_sync').
   */
  historySent(): HistorySentView[] {
    return this.account.historySent.map(({ receipts, ...record }) => ({
      ...record,
      acknowledged: receipts.has('hist_sync'),
      receipts: [...receipts],
    }))
  }

  /** Resolves once the last notification (progress 100) was sent and the device acknowledged every one. */
  waitForHistoryAcknowledged(timeoutMs = 30_000): Promise<HistorySentView[]> {
    return waitUntil(
      () => {
        const sent = this.historySent()
        const complete = sent.some((record) => record.progress === 100) && sent.every((record) => record.acknowledged)
        return complete ? sent : undefined
      },
      timeoutMs,
      `${this.phone}'s device to acknowledge its history`,
    )
  }

  /**
   * A hand-made history-sync notification (a bomb: a file inflating to `inflatedBytes`, or `raw`
   * plaintext, not deflated), sent like the phone's own; resolves with its id.
   */
  sendHistoryBlob(blob: HistoryBlob): Promise<string> {
    return sendHistoryBlob(this.state, this.account, blob)
  }

  /** Ids of the 1:1 messages relayed to the device that it has not acknowledged yet (its offline queue). */
  unacknowledged(): string[] {
    return [...this.account.unacknowledged.keys()]
  }

  /**
   * The account's phone sends a 1:1 message (text, location, image, a poll, or a reaction) from
   * WhatsApp itself: the contact gets it and the linked device a copy; resolves with its id.
   */
  sendFromPhone(contactPhone: string, content: ContactContent, options: PhoneSendOptions = {}): Promise<string> {
    return sendFromPhone(this.state, this.account, contactPhone, content, options)
  }

  /** Resolves with the client's answer ('reject', ...) to an offered call. */
  waitForCallResponse(callId: string, timeoutMs = 10_000): Promise<string> {
    return waitUntil(
      () => this.account.calls.find((call) => call.callId === callId)?.response,
      timeoutMs,
      `a response to call ${callId}`,
    )
  }
}
