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
}
