// Everything the simulator knows, shared by the connection dispatch, iq handlers and the public API.
import type { Account } from './account'
import type { Channel } from './channels'
import type { AppState } from './app-state'
import type { CurveKeyPair } from './certificates'
import type { SeededHistory } from './history-model'
import type { Connection } from './connection'
import type { Contact } from './contact'
import type { Logger } from './logger'
import type { MediaHost } from './media-host'
import type { UserProfile } from './profiles'
import { SimulatorError } from './errors'
import { Violations } from './strict-checks'

export interface Group {
  jid: string
  subject: string
  /** When the subject was last set (s), and by whom (phone) */
  subjectTime: number
  subjectOwner: string | undefined
  /** Phone of the creator (superadmin): an account or a contact */
  owner: string | undefined
  /** Phones of every member, owner first: contacts and accounts */
  participants: string[]
  /** Phones of the members that are admins besides the owner (the superadmin) */
  admins: Set<string>
  description: { id: string; text: string; time: number; by: string } | undefined
  /** Only admins send messages */
  announce: boolean
  /** Only admins edit the group's info (WhatsApp calls it locked) */
  restrict: boolean
  /** The code of the group's invite link (https://chat.whatsapp.com/<code>) */
  inviteCode: string
  /** Codes of links an admin reset: joining with one is 410 gone */
  revokedInviteCodes: Set<string>
  /** Members that left by themselves, by phone, and when (ms): WhatsApp refuses re-adding them for a while (408) */
  recentlyLeft: Map<string, number>
  createdAt: number
}

/** WhatsApp's "who can add me to groups" privacy setting: `none` refuses every add (403 with an invite instead). */
export type GroupAddPrivacy = 'all' | 'none'

export interface SimOptions {
  /** Contacts answer every message with delivered + read receipts */
  autoReceipts: boolean
  /** The simulated phone scans every QR as soon as it is shown, with a fresh number */
  /** How many QR refs a registering client gets (each becomes one QR) */
  qrRefs: number
  logger: Logger
  /** The oldest client version logins and registrations are accepted from: older ones get <failure reason=405> */
  minimumVersion: ClientVersion
}

/** [primary, secondary, tertiary] of the ClientPayload's userAgent.appVersion, e.g. [2, 3000, 1043857760] */
export type ClientVersion = [number, number, number]

export class SimState {
  readonly accounts = new Map<string, Account>()
  readonly contacts = new Map<string, Contact>()
  readonly groups = new Map<string, Group>()
  /** WhatsApp Channels (newsletters), by jid (channels.ts) */
  readonly channels = new Map<string, Channel>()
  /** Phones (accounts or contacts) whose privacy refuses being added to groups */
  readonly refusesGroupAdds = new Set<string>()
  /** Push name, about, photo, business profile and their privacy, by phone (profiles.ts) */
  readonly profiles = new Map<string, UserProfile>()
  /** Whom each user blocked: phone -> blocked phones */
  readonly blockLists = new Map<string, Set<string>>()
  /** Each user's app-state key and collections, kept by their phone (app-state.ts) */
  readonly appStates = new Map<string, AppState>()
  /** Histories seeded on phones, sent to each device they link (history-seed.ts, history-send.ts) */
  readonly histories = new Map<string, SeededHistory>()
  /** While set, group changes reach nobody's devices: a test's way to lose notifications */
  groupNotificationsLost = false
  /**
   * Number forms the network answers in another form, alias -> the contact's own number: WhatsApp
   * does this for Brazilian mobiles registered before the ninth digit (asked +55 11 9xxxx-xxxx,
   * answered 55 11 xxxx-xxxx@s.whatsapp.net), and vice versa.
   */
  readonly numberAliases = new Map<string, string>()
  readonly connections = new Set<Connection>()
  /**
   * Logins under way: websockets that opened and have not yet been logged in, refused or offered
   * QR refs. `peak` is the most at once since the last reset (a gateway restoring sessions with
   * bounded concurrency never exceeds its bound).
   */
  readonly logins = { inProgress: 0, peak: 0, completed: 0 }
  readonly violations = new Violations()
  /** Handshakes refused as outdated (405), oldest first, with the version each client announced */
  readonly outdatedRefusals: { version: string; username?: string }[] = []
  private nextLid = 100_000_000_000_000
  private nextPhone = 15_550_100_000

  constructor(
    readonly options: SimOptions,
    readonly rootKey: CurveKeyPair,
    readonly media: MediaHost,
  ) {}

  get logger(): Logger {
    return this.options.logger
  }

  allocateLid(): string {
    return String(this.nextLid++)
  }

  allocatePhone(): string {
    let phone = String(this.nextPhone++)
    while (this.accounts.has(phone) || this.contacts.has(phone) || this.numberAliases.has(phone))
      phone = String(this.nextPhone++)
    return phone
  }

  accountByLid(lid: string): Account | undefined {
    for (const account of this.accounts.values()) if (account.lid === lid) return account
    return undefined
  }

  contactByLid(lid: string): Contact | undefined {
    for (const contact of this.contacts.values()) if (contact.lid === lid) return contact
    return undefined
  }

  /** A contact by its number or by a number form that answers as it. */
  contactByPhone(phone: string): Contact | undefined {
    return this.contacts.get(this.numberAliases.get(phone) ?? phone)
  }

  /** Resolves the user part of a PN or LID jid to an account or contact. */
  lookupUser(user: string, server: string): { account?: Account; contact?: Contact } {
    if (server === 'lid') return { account: this.accountByLid(user), contact: this.contactByLid(user) }
    return { account: this.accounts.get(user), contact: this.contactByPhone(user) }
  }

  liveConnectionOf(account: Account): Connection | undefined {
    const connection = account.connection
    return connection && !connection.closed ? connection : undefined
  }

  /** The account's open connection, for a contact action that needs the client online. */
  requireLiveConnection(account: Account): Connection {
    const connection = this.liveConnectionOf(account)
    if (!connection) throw new SimulatorError('account_offline', `account ${account.phone} has no open connection`, 409)
    return connection
  }
}
