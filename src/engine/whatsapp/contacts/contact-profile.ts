import { getBinaryNodeChild, getBinaryNodeChildren, jidDecode, type BinaryNode } from '@whiskeysockets/baileys'
import type { BlockedUser, BusinessProfile } from '../port/contacts'

const text = (node: BinaryNode | undefined): string | undefined => {
  const content = node?.content
  const value =
    content instanceof Uint8Array ? Buffer.from(content).toString('utf8') : typeof content === 'string' ? content : ''
  return value === '' ? undefined : value
}

const minutes = (value: string | undefined): number | undefined => {
  const number = Number(value)
  return value !== undefined && Number.isInteger(number) && number >= 0 ? number : undefined
}

/**
 * Pure. WhatsApp's answer to a w:biz business-profile query (Baileys' getBusinessProfile reads
 * the same nodes) → the profile, or undefined for an account that is no business (no <profile>).
 */
export function toBusinessProfile(result: BinaryNode | undefined): BusinessProfile | undefined {
  const profile = getBinaryNodeChild(getBinaryNodeChild(result, 'business_profile'), 'profile')
  if (!profile) return undefined
  const category = text(getBinaryNodeChild(getBinaryNodeChild(profile, 'categories'), 'category'))
  const hours = getBinaryNodeChild(profile, 'business_hours')
  const fields = {
    description: text(getBinaryNodeChild(profile, 'description')),
    category,
    email: text(getBinaryNodeChild(profile, 'email')),
    website: text(getBinaryNodeChild(profile, 'website')),
    address: text(getBinaryNodeChild(profile, 'address')),
  }
  return {
    ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
    ...(hours
      ? {
          hours: {
            ...(hours.attrs.timezone ? { timezone: hours.attrs.timezone } : {}),
            days: getBinaryNodeChildren(hours, 'business_hours_config').map(({ attrs }) => {
              const open = minutes(attrs.open_time)
              const close = minutes(attrs.close_time)
              return {
                day: attrs.day_of_week ?? '',
                mode: attrs.mode ?? '',
                ...(open !== undefined ? { openMinutes: open } : {}),
                ...(close !== undefined ? { closeMinutes: close } : {}),
              }
            }),
          },
        }
      : {}),
  }
}

/**
 * Pure. Baileys' usync status protocol gives the about text, `''` when its owner hides it from
 * this account (WhatsApp's code 401) and null when there is none: both are "no about" here.
 */
export function toAbout(status: { status?: string | null; setAt?: Date } | null | undefined) {
  if (!status?.status) return undefined
  const setAt = status.setAt && status.setAt.getTime() > 0 ? status.setAt : undefined
  return { text: status.status, ...(setAt ? { setAt } : {}) }
}

const userOf = (jid: string | undefined, server: string) => {
  const decoded = jid ? jidDecode(jid) : undefined
  return decoded?.server === server ? decoded.user : undefined
}

/**
 * Pure. WhatsApp's block list (`<list><item jid [pn_jid]/>`) → who is on it: an item names a user
 * by LID (what rc14 blocks by) or by number, and may carry the number beside the LID.
 */
export function toBlockedUsers(result: BinaryNode | undefined): BlockedUser[] {
  return getBinaryNodeChildren(getBinaryNodeChild(result, 'list'), 'item').flatMap(({ attrs }) => {
    const lid = userOf(attrs.jid, 'lid')
    const phone = userOf(attrs.jid, 's.whatsapp.net') ?? userOf(attrs.pn_jid, 's.whatsapp.net')
    return lid || phone ? [{ ...(phone ? { phone } : {}), ...(lid ? { lid } : {}) }] : []
  })
}
