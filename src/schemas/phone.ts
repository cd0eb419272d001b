import { z } from 'zod'
import { echo } from './echo'

export const PHONE_MIN_DIGITS = 6
export const PHONE_MAX_DIGITS = 15 // E.164
/** Room for 15 digits and the separators people paste; anything longer is not a phone number. */
const MAX_PHONE_CHARS = 32

/** What people paste: `+1 555-123-0001`, `(1555) 1230001`, `1555.123.0001`. A `+` only in front. */
const PHONE_CHARACTERS = /^\+?[\d ().-]+$/
export const GROUP_ID = /^\d{1,24}(-\d{1,24})?@g\.us$/
const LID = /^\d{1,24}@lid$/
/** A WhatsApp Channel (newsletter): digits (18 today; 30 leaves room without letting anything long through). */
export const CHANNEL_JID = /^\d{5,30}@newsletter$/

/** A phone number as the client sent it (answer with this) and its digits (give the network these). */
export interface PhoneNumber {
  input: string
  digits: string
}

export type ChatAddress =
  | { kind: 'phone'; input: string; digits: string; jid: string }
  | { kind: 'group'; input: string; jid: string }
  | { kind: 'lid'; input: string; jid: string }
  /** The account's statuses (stories): set by the status routes, never parsed from a request. */
  | { kind: 'status'; input: string; jid: string }
  /** Sends only (sendAddress): a channel the account owns or admins. */
  | { kind: 'channel'; input: string; jid: string }

/** The phone rule itself; `problem` says what is wrong without repeating more than ~40 chars. */
export function parsePhone(input: string): PhoneNumber | { problem: string } {
  if (input.length > MAX_PHONE_CHARS || !PHONE_CHARACTERS.test(input)) {
    return {
      problem: `${echo(input)} is not a phone number: digits, country code first, optionally with +, spaces, dashes, dots or parentheses`,
    }
  }
  const digits = input.replace(/\D/g, '')
  if (digits.length < PHONE_MIN_DIGITS || digits.length > PHONE_MAX_DIGITS) {
    return {
      problem: `${echo(input)} has ${digits.length} digits; a phone number has ${PHONE_MIN_DIGITS} to ${PHONE_MAX_DIGITS}, country code first`,
    }
  }
  return { input, digits }
}

/** Numbers this short are often national ones: few countries' full numbers, country code included, are. */
const SHORT_NATIONAL_DIGITS = 10

/**
 * Why a number WhatsApp does not know may be written wrong, when it looks so (empty otherwise):
 * numbers go country code first with no international prefix, and the commonest mistakes are the
 * prefix `00`, a national trunk `0` (no country code starts with 0), or a national number
 * without its country code. A hint, never a refusal: such numbers can be right.
 */
export function countryCodeHint(phone: Pick<PhoneNumber, 'input' | 'digits'>): string {
  const { input, digits } = phone
  if (digits.startsWith('00'))
    return `it starts with 00: write the country code without the 00 (${digits.slice(2, 6)}… rather than ${digits.slice(0, 6)}…)`
  if (digits.startsWith('0'))
    return 'it starts with 0, which no country code does: it looks like a national number; write it with its country code first, without the 0 where the country drops it (e.g. 44 7911 123456 rather than 07911 123456)'
  if (!input.trimStart().startsWith('+') && digits.length <= SHORT_NATIONAL_DIGITS)
    return `if ${digits.length} digits is a national number, write it with its country code first (e.g. 1 555 123 0001 rather than 555 123 0001)`
  return ''
}

const phoneDescription = `A phone number, country code first: ${PHONE_MIN_DIGITS} to ${PHONE_MAX_DIGITS} digits, optionally with a leading +, spaces, dashes, dots and parentheses (e.g. "+1 555-123-0001").`

/** A phone number field: parses to `{ input, digits }` so answers can echo `input` exactly. */
export const phoneNumber = z
  .string()
  .transform((input, ctx): PhoneNumber => {
    const parsed = parsePhone(input)
    if ('problem' in parsed) {
      ctx.issues.push({ code: 'custom', input, message: parsed.problem })
      return z.NEVER
    }
    return parsed
  })
  .meta({ description: phoneDescription, example: '+1 555-123-0001' })

/** A phone number field whose value is only its digits (where nothing echoes the input back). */
export const phoneDigits = phoneNumber.transform((phone) => phone.digits)

/** Someone: by phone number, or by LID where WhatsApp addresses them so (never a group). */
export type PersonAddress = Exclude<ChatAddress, { kind: 'group' | 'channel' | 'status' }>

/** A phone number (as above) or a LID (`<digits>@lid`, the API's one LID form): a person, not a chat. */
export const personAddress = z
  .string()
  .transform((input, ctx): PersonAddress => {
    if (LID.test(input)) return { kind: 'lid', input, jid: input }
    const phone = parsePhone(input)
    if (!('problem' in phone))
      return { kind: 'phone', input, digits: phone.digits, jid: `${phone.digits}@s.whatsapp.net` }
    ctx.issues.push({
      code: 'custom',
      input,
      message: `${echo(input)} is not a phone number or a LID: digits, country code first (optionally with +, spaces, dashes, dots or parentheses), or <digits>@lid`,
    })
    return z.NEVER
  })
  .meta({ description: `${phoneDescription} Or a LID (<digits>@lid).`, example: '15551230001' })

/**
 * Where a message can go: a phone number (as above), a group id (`<digits>-<digits>@g.us` or
 * `<digits>@g.us`) or a LID (`<digits>@lid`). Parses to the kind, the input as sent and the JID.
 */
export const chatAddress = z
  .string()
  .transform((input, ctx): ChatAddress => {
    if (GROUP_ID.test(input)) return { kind: 'group', input, jid: input }
    if (LID.test(input)) return { kind: 'lid', input, jid: input }
    const phone = parsePhone(input)
    if (!('problem' in phone))
      return { kind: 'phone', input, digits: phone.digits, jid: `${phone.digits}@s.whatsapp.net` }
    ctx.issues.push({
      code: 'custom',
      input,
      message: `${echo(input)} is not a chat address: a phone number, a group id (<digits>-<digits>@g.us or <digits>@g.us) or a LID (<digits>@lid)`,
    })
    return z.NEVER
  })
  .meta({
    description: `${phoneDescription} Or a group id (<digits>-<digits>@g.us, <digits>@g.us) or a LID (<digits>@lid).`,
    example: '120363025246125888@g.us',
  })

/** Where a send can go: a chat address (as above), or a channel (`<digits>@newsletter`) the account owns or admins. */
export const sendAddress = z
  .string()
  .transform((input, ctx): ChatAddress => {
    if (CHANNEL_JID.test(input)) return { kind: 'channel', input, jid: input }
    const parsed = chatAddress.safeParse(input)
    if (parsed.success) return parsed.data
    ctx.issues.push({
      code: 'custom',
      input,
      message: `${echo(input)} is not a chat address: a phone number, a group id (<digits>-<digits>@g.us or <digits>@g.us), a LID (<digits>@lid) or a channel (<digits>@newsletter)`,
    })
    return z.NEVER
  })
  .meta({
    description: `${phoneDescription} Or a group id (<digits>-<digits>@g.us, <digits>@g.us), a LID (<digits>@lid) or a channel the account owns or admins (<digits>@newsletter).`,
    example: '120363025246125888@g.us',
  })
