import type { ChatJid } from './index'

/*
 * The contacts part of the engine port (beside index.ts, the port's entry): what
 * WhatsApp shows of other people, the block list, and the account's own profile.
 */

export type BusinessDay = 'sun' | 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat'

/** A business account's public profile, each field where the business filled it in. */
export interface BusinessProfile {
  description?: string
  category?: string
  email?: string
  website?: string
  address?: string
  hours?: {
    timezone?: string
    /** WhatsApp's modes: specific_hours (with open/close, minutes after midnight), open_24h, appointment_only. */
    days: { day: string; mode: string; openMinutes?: number; closeMinutes?: number }[]
  }
}

/** What WhatsApp shows this account of someone; a field it hides (privacy, a block) or lacks is absent. */
export interface ContactProfile {
  /** Digits and LID (digits), each where known. */
  phone?: string
  lid?: string
  about?: { text: string; setAt?: Date }
  pictureUrl?: string
  business?: BusinessProfile
}

/** Someone on the account's block list (digits), each form where known. */
export interface BlockedUser {
  phone?: string
  lid?: string
}

/**
 * The account's view of other people, and its own profile. Every command is one query to
 * WhatsApp (a profile: one for the number, its LID and about, then the photo and the business
 * profile at once); none is answered from a cache.
 */
export interface SessionContacts {
  /** Someone by `<digits>@s.whatsapp.net` or `<digits>@lid`; null when WhatsApp has no account for them. */
  profile(jid: ChatJid): Promise<ContactProfile | null>
  /** Blocks or unblocks a number (or a LID whose number the account knows); null when it has no WhatsApp account. */
  setBlocked(jid: ChatJid, blocked: boolean): Promise<BlockedUser | null>
  /** The account's block list, as WhatsApp keeps it. */
  blocked(): Promise<BlockedUser[]>
  /**
   * Whether WhatsApp's app-state key reached this device (the phone shares it after linking): the
   * account's name is an app-state setting, and changing it needs the key.
   */
  readonly canSetName: boolean
  setName(name: string): Promise<void>
  setAbout(text: string): Promise<void>
  /** A JPEG WhatsApp takes as it is (square, 192–640 px a side); null removes the photo. */
  setPicture(jpeg: Uint8Array | null): Promise<void>
  /**
   * Asks WhatsApp for someone's presence (a number or LID): their state now, then each change,
   * come as `presence` facts. WhatsApp ties it to the connection: whoever wants it kept asks
   * again after each login.
   */
  subscribePresence(jid: ChatJid): Promise<void>
  /** Tells WhatsApp to stop sending someone's presence to this connection. */
  unsubscribePresence(jid: ChatJid): Promise<void>
}

/** What someone shows: online or not, or typing / recording / stopped in a chat with the account. */
export type PresenceState = 'available' | 'unavailable' | 'composing' | 'recording' | 'paused'

/** Someone's presence as WhatsApp relayed it (to an account subscribed to it, or in a group). */
export interface ContactPresence {
  /** Digits of their number and LID, each where known. */
  phone?: string
  lid?: string
  /** The group they type in (its jid); absent for a 1:1 chat or their online state. */
  group?: string
  state: PresenceState
  /** When they were last online, where their privacy shows it (with unavailable). */
  lastSeen?: Date
}

/** WhatsApp's privacy settings of the account, by its own category values (Baileys' WAPrivacy* types). */
export interface PrivacySettings {
  lastSeen: 'all' | 'contacts' | 'contact_blacklist' | 'none'
  online: 'all' | 'match_last_seen'
  profilePhoto: 'all' | 'contacts' | 'contact_blacklist' | 'none'
  about: 'all' | 'contacts' | 'contact_blacklist' | 'none'
  groups: 'all' | 'contacts' | 'contact_blacklist'
  readReceipts: 'all' | 'none'
  calls: 'all' | 'known'
}

/** The account's privacy settings, read from WhatsApp and changed there (one query per setting). */
export interface SessionPrivacy {
  /** Asked of WhatsApp each time (a setting changed on the phone shows at once). */
  get(): Promise<Partial<PrivacySettings>>
  set(changes: Partial<PrivacySettings>): Promise<void>
}
