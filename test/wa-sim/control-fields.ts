// Reading the control API's JSON bodies: strings, the options every contact send takes, what a
// contact sends (text or media, contact cards) and profile updates.
import { randomBytes } from 'node:crypto'
import type { OutgoingContent } from './contact-actions'
import type { SharedContact } from './contact-card'
import type { MediaContent } from './contact-media'
import { SimulatorError } from './errors'
import { fixture, isFixtureName } from './fixtures'
import type { BusinessProfile, ProfileUpdate, Visibility } from './profiles'

export const text = (body: Record<string, unknown>, field: string, required = true): string | undefined => {
  const value = body[field]
  if (typeof value === 'string' && value.length > 0) return value
  if (required) throw new SimulatorError('invalid_request', `"${field}" must be a non-empty string`)
  return undefined
}

export const sendOptions = (body: Record<string, unknown>) => ({
  to: text(body, 'to', false),
  fromLid: body.fromLid === true,
  group: text(body, 'group', false),
})

const MEDIA_KINDS = ['image', 'video', 'audio', 'document', 'sticker'] as const

const number = (body: Record<string, unknown>, field: string): number | undefined => {
  const value = body[field]
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw new SimulatorError('invalid_request', `"${field}" must be a non-negative number`)
  return value
}

/** `{<kind>: {data: base64 | fixture: name | size: random bytes, mimetype?, caption?, fileName?, seconds?, width?, height?, ptt?, gifPlayback?, animated?}}` */
const mediaContent = (kind: (typeof MEDIA_KINDS)[number], spec: unknown): MediaContent => {
  if (typeof spec !== 'object' || spec === null)
    throw new SimulatorError('invalid_request', `"${kind}" must be an object`)
  const fields = spec as Record<string, unknown>
  const named = text(fields, 'fixture', false)
  if (named !== undefined && !isFixtureName(named))
    throw new SimulatorError('invalid_request', `unknown fixture "${named}"`)
  const base = named ? fixture(named) : undefined
  // `size`: that many random bytes made here (a large file without sending it over JSON)
  const size = number(fields, 'size')
  if (size !== undefined && size > 2 ** 31 - 1)
    throw new SimulatorError('invalid_request', '"size" is at most 2 GiB - 1')
  const data = text(fields, 'data', !base && size === undefined)
  const bytes = data !== undefined ? Buffer.from(data, 'base64') : size !== undefined ? randomBytes(size) : base!.bytes
  const known = (base ?? {}) as { mimetype?: string; width?: number; height?: number; seconds?: number }
  const common = {
    mimetype: text(fields, 'mimetype', false) ?? known.mimetype,
    caption: text(fields, 'caption', false),
    seconds: number(fields, 'seconds') ?? known.seconds,
    width: number(fields, 'width') ?? known.width,
    height: number(fields, 'height') ?? known.height,
  }
  switch (kind) {
    case 'image':
      return { image: bytes, ...common, mimetype: common.mimetype ?? 'image/jpeg' }
    case 'video':
      return { video: bytes, ...common, gifPlayback: fields.gifPlayback === true }
    case 'audio':
      return { audio: bytes, mimetype: common.mimetype, seconds: common.seconds, ptt: fields.ptt === true }
    case 'document':
      return {
        document: bytes,
        mimetype: common.mimetype,
        caption: common.caption,
        fileName: text(fields, 'fileName')!,
      }
    case 'sticker':
      return { sticker: bytes, ...common, animated: fields.animated === true }
  }
}

const sharedContacts = (value: unknown): SharedContact[] => {
  if (!Array.isArray(value) || value.length === 0)
    throw new SimulatorError('invalid_request', '"contacts" must be a non-empty array')
  return value.map((entry) => {
    if (typeof entry !== 'object' || entry === null)
      throw new SimulatorError('invalid_request', 'each contact must be {name, phones?, organization?, vcard?}')
    const fields = entry as Record<string, unknown>
    const phones = fields.phones
    if (phones !== undefined && !(Array.isArray(phones) && phones.every((p) => typeof p === 'string')))
      throw new SimulatorError('invalid_request', '"phones" must be an array of strings')
    return {
      name: text(fields, 'name')!,
      phones: phones as string[] | undefined,
      organization: text(fields, 'organization', false),
      vcard: typeof fields.vcard === 'string' ? fields.vcard : undefined,
    }
  })
}

/** `{text, quoteId?}`, `{location: {…}}`, `{image|video|audio|document|sticker: {…}}` or `{contacts: […]}` */
export const outgoingContent = (body: Record<string, unknown>): OutgoingContent => {
  const kind = MEDIA_KINDS.find((k) => body[k] !== undefined)
  if (kind) return mediaContent(kind, body[kind])
  if (body.contacts !== undefined) return { contacts: sharedContacts(body.contacts) }
  const location = body.location as Record<string, unknown> | undefined
  if (location !== undefined) {
    if (
      typeof location !== 'object' ||
      location === null ||
      typeof location.latitude !== 'number' ||
      typeof location.longitude !== 'number'
    ) {
      throw new SimulatorError('invalid_request', '"location" must be {latitude, longitude} numbers')
    }
    return {
      location: {
        latitude: location.latitude,
        longitude: location.longitude,
        name: text(location, 'name', false),
        address: text(location, 'address', false),
      },
    }
  }
  return { text: text(body, 'text')!, quoteId: text(body, 'quoteId', false) }
}

const VISIBILITY = ['all', 'none']

/** `{name?, about?, picture? (base64 JPEG | null), business? (| null), privacy?: {picture?, about?}}` */
export const profileUpdate = (body: Record<string, unknown>): ProfileUpdate => {
  const optional = (field: string, nullable: boolean): string | null | undefined => {
    const value = body[field]
    if (value === undefined || typeof value === 'string' || (nullable && value === null)) return value
    throw new SimulatorError('invalid_request', `"${field}" must be a string${nullable ? ' or null' : ''}`)
  }
  const picture = optional('picture', true)
  const privacy = body.privacy as Record<string, unknown> | undefined
  for (const value of Object.values(privacy ?? {}))
    if (!VISIBILITY.includes(value as string))
      throw new SimulatorError('invalid_request', '"privacy" values must be "all" or "none"')
  const business = body.business
  if (business !== undefined && business !== null && (typeof business !== 'object' || Array.isArray(business)))
    throw new SimulatorError('invalid_request', '"business" must be an object or null')
  return {
    ...(optional('name', false) !== undefined ? { name: optional('name', false)! } : {}),
    ...(body.about !== undefined ? { about: optional('about', true) ?? null } : {}),
    ...(picture !== undefined ? { picture: picture === null ? null : Buffer.from(picture, 'base64') } : {}),
    ...(business !== undefined ? { business: business as BusinessProfile | null } : {}),
    ...(privacy ? { privacy: privacy as { picture?: Visibility; about?: Visibility } } : {}),
  }
}
