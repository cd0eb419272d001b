// The public face of the simulator: starts the chat server, media host and control state, and
// hands out contacts, accounts and groups to tests or the control API.
import { mintLinkedDevice, type MintedDevice } from './mint'
import { Curve, DEFAULT_CONNECTION_CONFIG } from '@whiskeysockets/baileys'
import { type AccountStats, copyStats } from './account'
import { makeMediaTls } from './certificates'
import { Contact } from './contact'
import { SimulatorError } from './errors'
import { AccountHandle, ContactHandle, waitUntil } from './handles'
import { silentLogger } from './logger'
import type { Logger } from './logger'
import { MediaHost, type MediaAnswer } from './media-host'
import { enterPairingCode, scanQr } from './pairing'
import type { LinkedIdentity, ScanOptions } from './pairing'
import { ChatServer } from './server'
import { SimState, type ClientVersion, type GroupAddPrivacy } from './state'
import { GroupHandle } from './group-handle'
import { ChannelHandle, createChannel, type ChannelOptions } from './channel-handle'
import { GroupRefusal, joinByInviteCode, newInviteCode } from './group-ops'
import { updateProfile, viewProfile, type ProfileUpdate, type ProfileView } from './profiles'
import type { Violation } from './strict-checks'
import { countSince } from './history-model'
import { seedHistory, type HistorySeed, type HistorySummary } from './history-seed'

export interface SimulatorStartOptions {
  autoReceipts?: boolean
  /** QR refs offered to a registering client (default 6); fewer refs make Baileys give up sooner */
  qrRefs?: number
  logger?: Logger
  /** WebSocket port (default: any free port) */
  port?: number
  /** Contacts to register at start */
  contacts?: string[]
  /** Oldest accepted client version (default: the one Baileys 7.0.0-rc14 ships, as WhatsApp accepted it then) */
  minimumVersion?: ClientVersion
  /**
   * An impostor: `config.rootPublicKey` names a root key, but the certificate chain is signed by
   * another one, as a man in the middle without WhatsApp's root key would have to
   */
  impostor?: boolean
}

export interface SimulatorConfig {
  /** Baileys `waWebSocketUrl` */
  wsUrl: string
  /** Base64 of the 32-byte Curve25519 root public key: set Baileys' WA_CERT_DETAILS.PUBLIC_KEY to it */
  rootPublicKey: string
  /** PEM of the CA that signed the media host's certificate: trust it in Baileys' `fetchAgent` */
  mediaCaPem: string
  /** host:port of the media host */
  mediaHost: string
}

export interface PendingPairing {
  connectionId: number
  /** Latest QR refs offered to this client */
  qrRefs: string[]
  /** Set when the client asked for a pairing code for this phone */
  pairingCodePhone?: string
}

export interface CreatedGroup {
  jid: string
  subject: string
  participants: string[]
}

export class WhatsAppSimulator {
  private constructor(
    private readonly state: SimState,
    private readonly server: ChatServer,
    readonly config: SimulatorConfig,
  ) {}

  static async start(options: SimulatorStartOptions = {}): Promise<WhatsAppSimulator> {
    const rootKey = Curve.generateKeyPair()
    const tls = await makeMediaTls()
    const media = await MediaHost.start(tls)
    const state = new SimState(
      {
        autoReceipts: options.autoReceipts ?? false,
        qrRefs: options.qrRefs ?? 6,
        logger: options.logger ?? silentLogger,
        minimumVersion: options.minimumVersion ?? [...DEFAULT_CONNECTION_CONFIG.version],
      },
      options.impostor ? Curve.generateKeyPair() : rootKey,
      media,
    )
    const server = await ChatServer.start(state, options.port)
    const config = {
      wsUrl: server.url,
      rootPublicKey: Buffer.from(rootKey.public).toString('base64'),
      mediaCaPem: tls.caPem,
      mediaHost: media.hostname,
    }
    const simulator = new WhatsAppSimulator(state, server, config)
    for (const phone of options.contacts ?? []) simulator.addContact(phone)
    return simulator
  }

  /**
   * Registers a contact with its own Signal identity and LID (idempotent per phone). With `answerAs`
   * the contact's number is `answerAs` and `phone` is a form usync answers as it (Brazil's ninth digit).
   */
  addContact(phone: string, options: { answerAs?: string } = {}): { phone: string; lid: string } {
    const asked = normalizePhone(phone)
    const own = options.answerAs ? normalizePhone(options.answerAs) : asked
    if (own !== asked) {
      if (this.state.contacts.has(asked) || this.state.accounts.has(asked))
        throw new SimulatorError('phone_in_use', `${asked} is already a number of its own`, 409)
      const aliased = this.state.numberAliases.get(asked)
      if (aliased && aliased !== own)
        throw new SimulatorError('phone_in_use', `${asked} already answers as ${aliased}`, 409)
    }
    const existing = this.state.contactByPhone(own)
    const contact = existing ?? new Contact(own, this.state.allocateLid())
    if (!existing) {
      if (this.state.accounts.has(own)) throw new SimulatorError('phone_in_use', `${own} is an account`, 409)
      this.state.contacts.set(own, contact)
    }
    if (own !== asked) this.state.numberAliases.set(asked, own)
    return { phone: contact.phone, lid: contact.lid }
  }

  /**
   * Seeds the history `phone`'s phone keeps, before it links a device (409 once linked): chats
   * with new contacts, groups, messages over the last `days` days. The phone sends it to the
   * device it links (history-send.ts). Resolves with what was seeded.
   */
  seedHistory(phone: string, seed: HistorySeed): Promise<HistorySummary> {
    return seedHistory(this.state, normalizePhone(phone), seed)
  }

  /** How many seeded messages of `phone` are at most `days` days old now (what a device with that day limit gets). */
  historyMessagesWithin(phone: string, days: number): number {
    const history = this.state.histories.get(normalizePhone(phone))
    if (!history) throw new SimulatorError('unknown_history', `no history seeded for ${phone}`, 404)
    const cutoff = Math.floor(Date.now() / 1000) - days * 86_400
    return history.conversations.reduce((sum, conversation) => sum + countSince(history, conversation, cutoff), 0)
  }

  /** The simulated phone scans a QR shown by a client; `phone` defaults to a fresh number. */
  scan(qr: string, phone?: string, options: ScanOptions = {}): LinkedIdentity {
    return scanQr(this.state, qr, phone === undefined ? undefined : normalizePhone(phone), options)
  }

  /**
   * `count` accounts linked to devices that never showed a QR, with the client side of each as
   * Baileys' auth state (mint.ts): for benches that restore thousands of sessions.
   */
  mintLinkedDevices(count: number): MintedDevice[] {
    return Array.from({ length: count }, () => mintLinkedDevice(this.state))
  }

  /** The phone user types the code the client showed after requestPairingCode(phone). */
  async enterPairingCode(phone: string, code: string): Promise<LinkedIdentity> {
    // Baileys' requestPairingCode resolves once its request is written, so it may still be in flight
    const requested = () =>
      this.pendingPairings().some((p) => p.pairingCodePhone === normalizePhone(phone)) ? true : undefined
    await waitUntil(requested, 5_000, `a pairing-code request for ${phone}`)
    await enterPairingCode(this.state, normalizePhone(phone), code)
    const account = await waitUntil(() => this.state.accounts.get(normalizePhone(phone)), 10_000, `pairing of ${phone}`)
    return { phone: account.phone, lid: account.lid }
  }

  pendingPairings(): PendingPairing[] {
    return [...this.state.connections].flatMap((connection) => {
      const registration = connection.registration
      if (connection.closed || !registration || registration.pendingAccount) return []
      const pairingCodePhone = registration.pairingCode?.phone
      return [
        {
          connectionId: connection.id,
          qrRefs: [...registration.qrRefs],
          ...(pairingCodePhone ? { pairingCodePhone } : {}),
        },
      ]
    })
  }

  contact(phone: string): ContactHandle {
    const contact = this.state.contactByPhone(normalizePhone(phone))
    if (!contact) throw new SimulatorError('unknown_contact', `no contact ${phone}`, 404)
    return new ContactHandle(this.state, contact)
  }

  account(phone: string): AccountHandle {
    const account = this.state.accounts.get(normalizePhone(phone))
    if (!account) throw new SimulatorError('unknown_account', `no account ${phone}`, 404)
    return new AccountHandle(this.state, account)
  }

  accounts(): AccountHandle[] {
    return [...this.state.accounts.values()].map((account) => new AccountHandle(this.state, account))
  }

  /** Waits until a pairing completes for `phone` (or any phone) and the account exists. */
  waitForAccount(phone?: string, timeoutMs = 10_000): Promise<AccountHandle> {
    return waitUntil(
      () => {
        const account = phone
          ? this.state.accounts.get(normalizePhone(phone))
          : [...this.state.accounts.values()].at(-1)
        return account ? new AccountHandle(this.state, account) : undefined
      },
      timeoutMs,
      `account ${phone ?? '(any)'}`,
    )
  }

  /**
   * A group of contacts and accounts; `ownerPhone` (default: the last paired account) is its creator
   * and superadmin, other accounts are admins. Phones that are neither become contacts.
   */
  createGroup(subject: string, participantPhones: string[], ownerPhone?: string): CreatedGroup {
    const member = (phone: string): string => {
      const normalized = normalizePhone(phone)
      if (this.state.accounts.has(normalized)) return normalized
      return this.state.contactByPhone(normalized)?.phone ?? this.addContact(normalized).phone
    }
    const participants = [...new Set(participantPhones.map(member))]
    const owner = ownerPhone ? member(ownerPhone) : [...this.state.accounts.keys()].at(-1)
    const jid = `120363${Date.now().toString().slice(-9)}${this.state.groups.size.toString().padStart(3, '0')}@g.us`
    const createdAt = Math.floor(Date.now() / 1000)
    const members = owner ? [owner, ...participants.filter((phone) => phone !== owner)] : participants
    const admins = new Set(members.filter((phone) => phone !== owner && this.state.accounts.has(phone)))
    this.state.groups.set(jid, {
      jid,
      subject,
      subjectTime: createdAt,
      subjectOwner: owner,
      owner,
      participants: members,
      admins,
      description: undefined,
      announce: false,
      restrict: false,
      inviteCode: newInviteCode(),
      revokedInviteCodes: new Set(),
      recentlyLeft: new Map(),
      createdAt,
    })
    return { jid, subject, participants }
  }

  /** A group: its state, and what its members do to it (`group(jid).by(phone).setSubject(...)`). */
  group(jid: string): GroupHandle {
    if (!this.state.groups.has(jid)) throw new SimulatorError('unknown_group', `no group ${jid}`, 404)
    return new GroupHandle(this.state, jid)
  }

  /** A WhatsApp Channel (newsletter), owned by an account or by someone outside the simulation. */
  createChannel(options: ChannelOptions): ChannelHandle {
    return createChannel(this.state, {
      ...options,
      ...(options.owner ? { owner: normalizePhone(options.owner) } : {}),
      ...(options.followers ? { followers: options.followers.map(normalizePhone) } : {}),
    })
  }

  /** A channel: its state and posts (`channel(jid).post({ text })`). */
  channel(jid: string): ChannelHandle {
    if (!this.state.channels.has(jid)) throw new SimulatorError('unknown_channel', `no channel ${jid}`, 404)
    return new ChannelHandle(this.state, jid)
  }

  /** `phone` (a contact, or an account from its phone) joins the group an invite link's code opens. */
  joinGroup(phone: string, code: string): string {
    const joiner = normalizePhone(phone)
    if (!this.state.accounts.has(joiner) && !this.state.contactByPhone(joiner))
      throw new SimulatorError('unknown_user', `no account or contact ${phone}`, 404)
    try {
      return joinByInviteCode(this.state, joiner, code).jid
    } catch (error) {
      if (!(error instanceof GroupRefusal)) throw error
      throw new SimulatorError(
        `group_${error.text.replace(/-/g, '_')}`,
        `WhatsApp answers ${error.code} ${error.text}`,
        error.code === 410 ? 410 : 404,
      )
    }
  }

  /** Who may add `phone` (an account or a contact) to groups: `none` refuses every add (403 and an invite instead). */
  setGroupAddPrivacy(phone: string, privacy: GroupAddPrivacy): void {
    const user = normalizePhone(phone)
    if (!this.state.accounts.has(user) && !this.state.contactByPhone(user))
      throw new SimulatorError('unknown_user', `no account or contact ${phone}`, 404)
    if (privacy === 'none') this.state.refusesGroupAdds.add(user)
    else this.state.refusesGroupAdds.delete(user)
  }

  /**
   * Sets what WhatsApp keeps of a user (account or contact): push name, about (null clears it), photo
   * (a square JPEG of 192–640 px, checked as for a client; null removes it), business profile (null:
   * a personal account) and who sees photo and about (`privacy: { picture, about }`: 'all' | 'none').
   */
  setProfile(phone: string, update: ProfileUpdate): void {
    updateProfile(this.state, normalizePhone(phone), update)
  }

  /** What WhatsApp keeps of a user: what an account's own client set shows here too. */
  profile(phone: string): ProfileView {
    return viewProfile(this.state, normalizePhone(phone))
  }

  /** WhatsApp moves on: clients older than `version` are refused (405) from their next handshake. */
  setMinimumVersion(version: ClientVersion): void {
    this.state.options.minimumVersion = [...version]
  }

  get minimumVersion(): ClientVersion {
    return [...this.state.options.minimumVersion]
  }

  /** Handshakes refused as outdated, oldest first: the version each client announced (and its phone, on a login). */
  outdatedRefusals(): { version: string; username?: string }[] {
    return this.state.outdatedRefusals.map((refusal) => ({ ...refusal }))
  }

  violations(): Violation[] {
    return this.state.violations.all()
  }

  stats(): Record<string, AccountStats> {
    return Object.fromEntries(
      [...this.state.accounts.values()].map((account) => [account.phone, copyStats(account.stats)]),
    )
  }

  /** Logins under way now, the most at once since the last reset, and login attempts by linked devices so far. */
  loginStats(options: { reset?: boolean } = {}): { inProgress: number; peak: number; completed: number } {
    const stats = { ...this.state.logins }
    if (options.reset) Object.assign(this.state.logins, { peak: this.state.logins.inProgress, completed: 0 })
    return stats
  }

  /** Every media download waits until the returned function is called (files yet to be sent too). */
  holdMediaDownloads(): () => void {
    return this.state.media.hold('*')
  }

  /**
   * A path on the media host whose GETs get a scripted answer (a status, a redirect, a 200 of
   * `body`, or silence): its direct path and URL, for a contact's message to name with `where`.
   */
  scriptMedia(answer: MediaAnswer): { directPath: string; url: string; downloads: () => number } {
    const directPath = this.state.media.script(answer)
    return {
      directPath,
      url: this.state.media.urlFor(directPath),
      downloads: () => this.state.media.downloads.get(directPath) ?? 0,
    }
  }

  /** Stored media uploads, by direct path (encrypted bytes as uploaded) */
  mediaUploads(): { directPath: string; size: number }[] {
    return [...this.state.media.uploads.values()].map((upload) => ({
      directPath: upload.directPath,
      size: upload.bytes.length,
    }))
  }

  async stop(): Promise<void> {
    await this.server.stop()
    await this.state.media.stop()
  }
}

const normalizePhone = (phone: string): string => phone.replace(/\D/g, '')
