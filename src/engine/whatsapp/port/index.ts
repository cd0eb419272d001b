import type { ChannelPost, ChannelUpdate, SessionChannels } from './channels'
import type { ContactPresence, SessionContacts, SessionPrivacy } from './contacts'
import type { GroupInfo, GroupNotice, SessionGroups } from './groups'
import type { LabelChange, SessionLabels } from './labels'
import type { HistoryChunkNotice, HistoryPart, HistoryReadOptions } from './history'
import type { InboundChange, InboundMessage, OutboundContent, OwnMessage, PollVote, Reaction } from './messages'

/*
 * The engine port's entry: what services call on a session (its handle) and the engine (open, facts),
 * the facts it reports and its errors. The port imports nothing from Baileys or zod (test/layers.test.ts):
 * its parts are groups.ts, contacts.ts and messages.ts beside it.
 */

/** What the first moments of a new pairing give the user to act on. */
export interface PairingPrompt {
  qr: string
  /** Only in pairing-code mode: the code the user types on the phone. */
  pairingCode?: string
}

export interface OpenOptions {
  mode: 'qr' | 'pairing'
  /** Digits, country code first; required in pairing mode. */
  pairingNumber?: string
  autoRejectCalls: boolean
  /**
   * Ask the phone for its history when this link pairs (a full sync with a day limit; only a
   * pairing sends it), and report its notifications as `history-chunk` facts. None: the phone
   * sends only its bootstrap, which Baileys reads for LID mappings and nothing is reported.
   */
  history?: { days: number }
  /** The proxy this session's WhatsApp traffic goes through; none: straight out. */
  proxy?: ProxySetting
}

export interface ProxySetting {
  /** http://, https:// or socks5://, credentials included (never logged). */
  url: string
  /**
   * A workspace named it (not the operator's PROXY_URL): before each connection its host is
   * resolved, checked against the proxy address rules and pinned, so DNS cannot turn it into
   * a way to the gateway host's own services.
   */
  checked: boolean
}

/**
 * Why the engine closed a socket or saw it closed, when it knows better than the close code:
 * `unresponsive` (a connected socket answered nothing: Baileys' keep-alive or a liveness check),
 * `outdated_version` (WhatsApp's <failure reason=405>: this client version is refused),
 * `proxy_unreachable` (the proxy did not get the socket to WhatsApp, whatever the reason: closed
 * port, timeout, unknown name, refused credentials or CONNECT, no proxy there; the log says which),
 * `proxy_forbidden` (the proxy's host resolves to an address a workspace may not use).
 */
export type CloseCause = 'unresponsive' | 'outdated_version' | 'proxy_unreachable' | 'proxy_forbidden'

/** The WhatsApp Web version the client announces, and where it came from. */
export interface WebVersionInfo {
  /** e.g. 2.3000.1023456789 */
  version: string
  /** pinned: WA_VERSION; fetched: from web.whatsapp.com; bundled: Baileys' own (no fetch, or it failed). */
  source: 'pinned' | 'fetched' | 'bundled'
}

export interface NumberCheck {
  /** Digits as asked. */
  phone: string
  exists: boolean
  jid?: string
  lid?: string
}

/** Whether a phone number has a WhatsApp account, and its LID (digits) when WhatsApp gives one. */
export interface PhoneLookup {
  exists: boolean
  lid?: string
}

/** Delivery progress of a message we sent, as WhatsApp reports it. */
export type ReceiptStatus = 'sent' | 'delivered' | 'read' | 'played' | 'failed'

/**
 * Facts the engine reports, each stamped with the socket it came from. The engine decides
 * nothing about session status: services apply these through their state machine, and a
 * fact from a socket that is no longer the session's current one never reaches them.
 */
export type EngineFact = { sessionId: string; socket: number } & (
  | { type: 'opened'; number?: string; lid?: string }
  | {
      type: 'closed'
      code?: number
      message?: string
      paired: boolean
      mode: 'qr' | 'pairing'
      cause?: CloseCause
    }
  | { type: 'qr'; qr: string }
  | {
      type: 'receipt'
      messageId: string
      chatJid: string
      status: ReceiptStatus
      reason?: string
      participant?: string
    }
  | { type: 'message'; message: InboundMessage }
  | { type: 'message-change'; change: InboundChange }
  /** The account sent a message from WhatsApp itself (or a send of ours came back). */
  | { type: 'own-message'; message: OwnMessage }
  | { type: 'reaction'; reaction: Reaction }
  /** A vote on one of the account's polls, decrypted. */
  | { type: 'poll-vote'; vote: PollVote }
  | { type: 'call'; callId: string; from: string; isVideo: boolean; rejected: boolean }
  /** Someone's presence or typing, as WhatsApp relayed it. */
  | { type: 'presence'; presence: ContactPresence }
  /** Every group the account is in, fetched once per login. */
  | { type: 'groups-synced'; groups: GroupInfo[] }
  | { type: 'group'; notice: GroupNotice }
  /** The phone announced a history chunk (only for a link opened with `history`). */
  | { type: 'history-chunk'; chunk: HistoryChunkNotice }
  /** A post arrived in a channel the account follows. */
  | { type: 'channel-post'; post: ChannelPost }
  /** A followed channel's name or description changed. */
  | { type: 'channel-updated'; update: ChannelUpdate }
  /** A label or a label's chat or message changed (app-state sync: the phone's change or ours). */
  | { type: 'label'; change: LabelChange }
)

export type FactListener = (fact: EngineFact) => void

/** Where a message is addressed: a user by phone or LID, or a group. */
export type ChatJid = string

/** A message as handed to WhatsApp: its id and the bytes Baileys can send again on retry. */
export interface SentMessage {
  id: string
  chatJid: ChatJid
  /** proto.Message encoded; opaque outside the engine (answers Baileys' getMessage). */
  payload: Uint8Array
  timestamp: Date
}

/** A message being answered: what WhatsApp needs to render the quote. */
export interface QuotedMessage {
  id: string
  chatJid: ChatJid
  fromMe: boolean
  /** Who wrote it, in a group. */
  participant?: string
  payload?: Uint8Array
}

export interface SendOptions {
  /** The id to send under (see SessionHandle.newMessageId); a new one when omitted. */
  messageId?: string
  quoted?: QuotedMessage
  /** A status (to `status@broadcast`): who sees it, and a text status's look. */
  status?: StatusSend
}

/** A status's viewers (`<digits>@s.whatsapp.net`) and, for text, its card colour (#RRGGBB) and font. */
export interface StatusSend {
  audience: string[]
  backgroundColor?: string
  font?: number
}

/** A received message whose file is wanted: its key as WhatsApp knows it, and its stored proto. */
export interface MediaMessageRef {
  id: string
  chatJid: ChatJid
  fromMe: boolean
  /** Groups: the author's jid (PN or LID), as the message key had it. */
  participant?: string
  /** proto.Message encoded, as recorded (SentMessage.payload, InboundMessage.payload). */
  payload: Uint8Array
}

export interface MediaDownloadOptions {
  /** Larger files are refused (EngineError too_large), by their declared size and while they stream. */
  maxBytes: number
  /** The download is abandoned when no byte arrives for this long. */
  idleTimeoutMs: number
  signal?: AbortSignal
}

/**
 * A file being fetched from WhatsApp's CDN and decrypted as it streams. The stream ends only
 * after the MAC, both SHA-256 sums and the length were checked; when a check fails it errors
 * instead of ending (EngineError corrupt), so a reader that waits for the end never keeps bad bytes.
 */
export interface MediaDownload {
  body: ReadableStream<Uint8Array>
  /** Plaintext bytes, as declared by the sender and checked at the end. */
  size: number
}

/** A reference to one of our own sent messages, for edit and revoke. */
export interface OwnMessageRef {
  id: string
  chatJid: ChatJid
  /** A status: the viewers it was shown to, whom its revoke must reach. */
  statusAudience?: string[]
}

/** A message someone else sent, to acknowledge as read. */
export interface ReceivedMessageRef {
  id: string
  chatJid: ChatJid
  /** Groups: who wrote it (its jid), as the receipt must name them. */
  participant?: string
}

/** What the account shows: typing or recording in a chat (or stopped), or itself on/offline. */
export type PresenceUpdate =
  | { state: 'composing' | 'recording' | 'paused'; chatJid: ChatJid }
  | { state: 'available' | 'unavailable' }

/**
 * One session's live link, as services use it. Commands only: what happens afterwards
 * comes back as facts.
 */
export interface SessionHandle {
  readonly sessionId: string
  /** Whether the socket is open and logged in right now. */
  readonly online: boolean
  /** The first QR (and pairing code) of a new pairing; rejects when the link closes first. */
  readonly prompt: Promise<PairingPrompt>
  /** Opens a new socket after a close, at once or after the next backoff step. */
  reconnect(options: { immediately: boolean }): void
  /** Closes without unlinking; credentials stay. */
  end(): Promise<void>
  /**
   * Unlinks the device from the account. Rejects when WhatsApp could not be told (offline,
   * network error); the credentials are then kept so the unlink can be tried again.
   */
  unlink(): Promise<void>
  setAutoRejectCalls(enabled: boolean): void
  /**
   * Rejects a call still ringing on this connection (offered and not ended, accepted or timed
   * out); null when there is none with this id. Answers the caller's jid.
   */
  rejectCall(callId: string): Promise<{ from: string } | null>
  /** The proxy of the next connection (the current one keeps its own). */
  setProxy(proxy: ProxySetting | undefined): void
  /**
   * Pings WhatsApp now (e.g. a send got no server ack): a connected socket that receives nothing
   * within the keep-alive interval is closed, reported `closed` with cause `unresponsive`.
   */
  checkLiveness(): void
  newMessageId(): string
  /** Why a recorded message's proto cannot be forwarded (view-once, unreadable), or undefined. */
  forwardRefusal(payload: Uint8Array): string | undefined
  send(to: ChatJid, content: OutboundContent, options?: SendOptions): Promise<SentMessage>
  edit(message: OwnMessageRef, text: string): Promise<void>
  revoke(message: OwnMessageRef): Promise<void>
  /** One network round trip for the whole batch. */
  checkNumbers(phones: string[]): Promise<NumberCheck[]>
  /**
   * Asks the account's phone to upload a file again that WhatsApp's CDN no longer has (a media
   * retry). Answers the message's proto pointing at the new upload; EngineError gone when the
   * phone no longer has it, timeout when it does not answer within `timeoutMs`.
   */
  reuploadMedia(message: MediaMessageRef, timeoutMs: number): Promise<Uint8Array>
  /**
   * Read receipts, one per chat (and group author) for its messages; `read-self` instead when
   * the account turned read receipts off (WhatsApp's privacy setting), as its phone would.
   */
  markRead(messages: ReceivedMessageRef[]): Promise<void>
  /**
   * Whether WhatsApp has told this device the account's profile (push) name: WhatsApp takes an
   * account's available/unavailable presence only with it.
   */
  readonly hasProfileName: boolean
  sendPresence(update: PresenceUpdate): Promise<void>
  /** The number (digits) a LID (`…@lid`) belongs to, when this account knows it. */
  phoneForLid(lidJid: ChatJid): Promise<string | undefined>
  /** Whether a number (`…@s.whatsapp.net`) is on WhatsApp; asks WhatsApp only when not known. */
  lookupPhone(phoneJid: ChatJid): Promise<PhoneLookup>
  readonly groups: SessionGroups
  readonly contacts: SessionContacts
  readonly privacy: SessionPrivacy
  readonly channels: SessionChannels
  readonly labels: SessionLabels
}

/**
 * The WhatsApp side as services see it: one handle per live session, in memory.
 * Services never touch Baileys; this is the only way in.
 */
export interface WhatsAppEngine {
  /**
   * Subscribes to every fact of every connection, called synchronously where it happens (an
   * inbound message is stored before Baileys acknowledges it). Answers the unsubscribe.
   */
  onFact(listener: FactListener): () => void
  /** Opens a session's link, ending any earlier one; restores from credentials when they exist. */
  open(sessionId: string, options: OpenOptions): Promise<SessionHandle>
  /** The live handle, if the session has one. */
  session(sessionId: string): SessionHandle | undefined
  /** Whether stored credentials exist from a completed pairing. */
  hasCredentials(sessionId: string): boolean
  wipeCredentials(sessionId: string): void
  /** Closes every connection without logging out (shutdown). */
  stopAll(): Promise<void>
  /**
   * Fetches the file of a stored message from WhatsApp's CDN over the session's network target
   * (no socket needed). EngineError gone for a file the CDN no longer has (404/410), too_large,
   * upstream for any other failure; corrupt is raised by the stream (see MediaDownload).
   */
  downloadMedia(sessionId: string, payload: Uint8Array, options: MediaDownloadOptions): Promise<MediaDownload>
  /**
   * Reads a history chunk (a `history-chunk` fact's notification) from WhatsApp's CDN like a
   * file, checked whole before a byte of it is inflated, then inflated and decoded as it goes,
   * part by part (no socket needed). EngineError gone, too_large (the file, or inflating past the
   * budget: parts already given stand), corrupt, upstream, timeout.
   */
  readHistory(sessionId: string, notification: Uint8Array, options: HistoryReadOptions): AsyncIterable<HistoryPart>
  /** The WhatsApp Web version new connections announce. */
  webVersion(): WebVersionInfo
}

/** Raised for a network that answered with an error or not at all; services map them. */
export class EngineError extends Error {
  override readonly name = 'EngineError'
  constructor(
    /**
     * not_found: WhatsApp answered 404 item-not-found (e.g. a group jid it does not know).
     * refused: WhatsApp answered another 4xx (`code`), e.g. 401 not-authorized, 403 forbidden.
     * Media: gone (the CDN dropped the file, or the phone has it no more), too_large, corrupt
     * (a MAC, hash or length that does not match), no_media (the message carries no file).
     */
    readonly kind:
      | 'timeout'
      | 'upstream'
      | 'not_connected'
      | 'not_found'
      | 'refused'
      | 'gone'
      | 'too_large'
      | 'corrupt'
      | 'no_media',
    message: string,
    /** WhatsApp's error code, when it answered one. */
    readonly code?: number,
  ) {
    super(message)
  }
}

/**
 * The close codes Baileys reports (its DisconnectReason), as plain numbers so that services
 * can reason about closes without loading Baileys; a unit test keeps them equal.
 */
export const CloseCode = {
  connectionClosed: 428,
  connectionLost: 408,
  connectionReplaced: 440,
  timedOut: 408,
  loggedOut: 401,
  badSession: 500,
  restartRequired: 515,
  multideviceMismatch: 411,
  forbidden: 403,
  unavailableService: 503,
} as const
