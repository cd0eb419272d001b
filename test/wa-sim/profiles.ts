// What WhatsApp keeps of every user (account or contact) besides its devices: the push name it
// attaches to their messages, the about text, the profile photo (served from the media host),
// who may see those two, a business profile for business accounts, and the user's block list.
import { randomInt } from 'node:crypto'
import { SimulatorError } from './errors'
import { readJpeg } from './jpeg'
import type { SimState } from './state'

export type Visibility = 'all' | 'none'

export type BusinessDay = 'sun' | 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat'
export type BusinessHoursMode = 'specific_hours' | 'open_24h' | 'appointment_only'

/** A business account's public profile, as the w:biz iq answers it. */
export interface BusinessProfile {
  description?: string
  category?: string
  email?: string
  website?: string
  address?: string
  hours?: {
    timezone: string
    days: { day: BusinessDay; mode: BusinessHoursMode; openMinutes?: number; closeMinutes?: number }[]
  }
}

export interface ProfilePicture {
  /** WhatsApp's picture id: changes with every new photo */
  id: string
  directPath: string
  bytes: Buffer
  side: number
}

export interface UserProfile {
  /** The push name WhatsApp puts in `notify` on the user's messages (set by the user's own client) */
  name?: string
  about?: { text: string; setAt: number }
  picture?: ProfilePicture
  business?: BusinessProfile
  /** Who may see the photo and the about text: everyone, or nobody but the user */
  privacy: { picture: Visibility; about: Visibility }
}

/** WhatsApp's limits: a push name of 25 characters, an about of 139; photos square, 192–640 px a side. */
export const NAME_MAX_CHARS = 25
export const ABOUT_MAX_CHARS = 139
export const PICTURE_MIN_SIDE = 192
export const PICTURE_MAX_SIDE = 640

/** The profile of a user by phone (created empty on first use). */
export const profileOf = (state: SimState, phone: string): UserProfile => {
  let profile = state.profiles.get(phone)
  if (!profile) {
    profile = { privacy: { picture: 'all', about: 'all' } }
    state.profiles.set(phone, profile)
  }
  return profile
}

/** The users `phone` blocked, by phone. */
export const blockListOf = (state: SimState, phone: string): Set<string> => {
  let list = state.blockLists.get(phone)
  if (!list) {
    list = new Set()
    state.blockLists.set(phone, list)
  }
  return list
}

export const hasBlocked = (state: SimState, blocker: string, blocked: string): boolean =>
  state.blockLists.get(blocker)?.has(blocked) ?? false

/** Whether `viewer` sees `owner`'s photo or about: their own always; hidden by privacy or by a block otherwise. */
export const visibleTo = (state: SimState, owner: string, viewer: string, what: 'picture' | 'about'): boolean =>
  owner === viewer || (profileOf(state, owner).privacy[what] === 'all' && !hasBlocked(state, owner, viewer))

/** A photo WhatsApp refuses, with the answer it gives: 400 for what is no JPEG, 406 for a wrong size. */
export class PictureRefusal extends Error {
  constructor(
    readonly code: 400 | 406,
    readonly text: string,
    readonly detail: string,
  ) {
    super(detail)
  }
}

/** Keeps a new photo (checked as the server checks it) on the media host; the old one's URL stops working. */
export const setPicture = (state: SimState, phone: string, bytes: Buffer | null): ProfilePicture | undefined => {
  const profile = profileOf(state, phone)
  if (bytes === null) {
    dropPicture(state, profile)
    return undefined
  }
  const jpeg = readJpeg(bytes)
  if (!jpeg.ok) throw new PictureRefusal(400, 'bad-request', `profile photo is not a whole JPEG: ${jpeg.reason}`)
  const side = jpeg.width
  if (jpeg.width !== jpeg.height || side < PICTURE_MIN_SIDE || side > PICTURE_MAX_SIDE) {
    throw new PictureRefusal(
      406,
      'not-acceptable',
      `profile photo is ${jpeg.width}×${jpeg.height}; WhatsApp takes squares of ${PICTURE_MIN_SIDE} to ${PICTURE_MAX_SIDE} px`,
    )
  }
  dropPicture(state, profile)
  const stored = state.media.store(bytes, '/pp/photo', 'image/jpeg')
  profile.picture = { id: String(randomInt(1_000_000_000, 2_000_000_000)), directPath: stored.directPath, bytes, side }
  return profile.picture
}

const dropPicture = (state: SimState, profile: UserProfile): void => {
  if (profile.picture) state.media.uploads.delete(profile.picture.directPath)
  profile.picture = undefined
}

/** What a test sets on a user's profile; `picture: null` removes the photo, `business: null` makes it personal. */
export interface ProfileUpdate {
  name?: string
  about?: string | null
  picture?: Buffer | null
  business?: BusinessProfile | null
  privacy?: Partial<UserProfile['privacy']>
}

/** A profile as tests read it: what the network keeps, with the photo's URL on the media host. */
export interface ProfileView {
  name?: string
  about?: string
  picture?: { id: string; url: string; bytes: Buffer; side: number }
  business?: BusinessProfile
  privacy: UserProfile['privacy']
}

export const updateProfile = (state: SimState, phone: string, update: ProfileUpdate): void => {
  const user = knownUser(state, phone)
  const profile = profileOf(state, user)
  if (update.picture !== undefined) {
    try {
      setPicture(state, user, update.picture)
    } catch (error) {
      if (!(error instanceof PictureRefusal)) throw error
      throw new SimulatorError(`picture_${error.text.replace(/-/g, '_')}`, error.detail, error.code)
    }
  }
  if (update.name !== undefined) profile.name = update.name
  if (update.about !== undefined)
    profile.about = update.about === null ? undefined : { text: update.about, setAt: Math.floor(Date.now() / 1000) }
  if (update.business !== undefined) profile.business = update.business ?? undefined
  if (update.privacy) profile.privacy = { ...profile.privacy, ...update.privacy }
}

export const viewProfile = (state: SimState, phone: string): ProfileView => {
  const profile = profileOf(state, knownUser(state, phone))
  const { picture } = profile
  return {
    ...(profile.name !== undefined ? { name: profile.name } : {}),
    ...(profile.about ? { about: profile.about.text } : {}),
    ...(picture
      ? {
          picture: {
            id: picture.id,
            url: state.media.urlFor(picture.directPath),
            bytes: picture.bytes,
            side: picture.side,
          },
        }
      : {}),
    ...(profile.business ? { business: profile.business } : {}),
    privacy: { ...profile.privacy },
  }
}

/** The push name WhatsApp attaches to a user's messages (`notify`): their own, else a placeholder. */
export const pushNameOf = (state: SimState, phone: string, fallback: string): string =>
  state.profiles.get(phone)?.name ?? fallback

/** The own number of an account or a contact (a number form that answers as a contact gives the contact's), or 404. */
export const knownUser = (state: SimState, phone: string): string => {
  if (state.accounts.has(phone)) return phone
  const contact = state.contactByPhone(phone)
  if (!contact) throw new SimulatorError('unknown_user', `no account or contact ${phone}`, 404)
  return contact.phone
}
