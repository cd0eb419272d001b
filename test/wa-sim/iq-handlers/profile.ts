// A user's public profile as Baileys' lib/Socket/chats.js reads and writes it: the profile photo
// (xmlns=w:profile:picture get: its URL on the media host; set: a new one of the account's own),
// the about text (xmlns=status set) and a business profile (xmlns=w:biz get). Malformed iqs are
// violations answered 400; what WhatsApp refuses is its error code.
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { Account } from '../account'
import { childOf, childrenOf, contentBytes, iqError, iqResult, isServerJid, unixNow } from '../node-utils'
import { ABOUT_MAX_CHARS, PictureRefusal, profileOf, setPicture, visibleTo, type BusinessProfile } from '../profiles'
import type { SimState } from '../state'

class Malformed extends Error {}

const USER_JID = /^(\d{1,24})@(s\.whatsapp\.net|lid)$/

/** The phone of the user a `<digits>@s.whatsapp.net` or `<digits>@lid` jid names, if WhatsApp knows them. */
export const userPhoneOf = (state: SimState, jid: string): string | undefined => {
  const match = USER_JID.exec(jid)
  if (!match) return undefined
  const { account, contact } = state.lookupUser(match[1]!, match[2] === 'lid' ? 'lid' : 's.whatsapp.net')
  return account?.phone ?? contact?.phone
}

const guarded = (state: SimState, account: Account, node: BinaryNode, answer: () => BinaryNode): BinaryNode => {
  try {
    if (!isServerJid(node.attrs.to)) throw new Malformed(`"to" is ${node.attrs.to ?? 'missing'}`)
    return answer()
  } catch (error) {
    if (error instanceof PictureRefusal) {
      state.violations.record(account.phone, 'invalid-profile-picture', error.detail)
      return iqError(node, error.code, error.text)
    }
    if (!(error instanceof Malformed)) throw error
    state.violations.record(
      account.phone,
      'malformed-node',
      `${node.attrs.xmlns} ${node.attrs.type} iq: ${error.message}`,
    )
    return iqError(node, 400, 'bad-request')
  }
}

export const handlePictureIq = (state: SimState, account: Account, node: BinaryNode): BinaryNode =>
  guarded(state, account, node, () => {
    const picture = childOf(node, 'picture')
    if (node.attrs.type === 'get') {
      if (!picture || !['image', 'preview'].includes(picture.attrs.type ?? '') || picture.attrs.query !== 'url')
        throw new Malformed('get without <picture type=image|preview query=url>')
      const target = node.attrs.target ?? ''
      if (target.endsWith('@g.us')) return iqError(node, 404, 'item-not-found') // groups have no photo here
      if (!USER_JID.test(target)) throw new Malformed(`target is no user jid: ${target.slice(0, 40)}`)
      const owner = userPhoneOf(state, target)
      if (!owner) return iqError(node, 404, 'item-not-found')
      const photo = profileOf(state, owner).picture
      if (!photo) return iqError(node, 404, 'item-not-found')
      if (!visibleTo(state, owner, account.phone, 'picture')) return iqError(node, 401, 'not-authorized')
      return iqResult(node, [
        {
          tag: 'picture',
          attrs: {
            id: photo.id,
            type: picture.attrs.type!,
            url: state.media.urlFor(photo.directPath),
            direct_path: photo.directPath,
          },
        },
      ])
    }
    if (node.attrs.type !== 'set') throw new Malformed('neither get nor set')
    // A group's photo (target=<group>) is not simulated; the account's own has no target
    if (node.attrs.target) return iqError(node, 501, 'feature-not-implemented')
    if (!picture) {
      setPicture(state, account.phone, null)
      return iqResult(node)
    }
    const bytes = contentBytes(picture)
    if (picture.attrs.type !== 'image' || !bytes) throw new Malformed('set without <picture type=image> bytes')
    const stored = setPicture(state, account.phone, bytes)!
    return iqResult(node, [{ tag: 'picture', attrs: { id: stored.id } }])
  })

export const handleStatusIq = (state: SimState, account: Account, node: BinaryNode): BinaryNode =>
  guarded(state, account, node, () => {
    const status = childOf(node, 'status')
    const bytes = contentBytes(status)
    if (node.attrs.type !== 'set' || !status || (status.content !== undefined && !bytes))
      throw new Malformed('not a set with <status>')
    const text = bytes?.toString('utf-8') ?? ''
    if ([...text].length > ABOUT_MAX_CHARS) {
      state.violations.record(
        account.phone,
        'over-limit',
        `about of ${[...text].length} characters (${ABOUT_MAX_CHARS})`,
      )
      return iqError(node, 406, 'not-acceptable')
    }
    profileOf(state, account.phone).about = text ? { text, setAt: Number(unixNow()) } : undefined
    return iqResult(node)
  })

/** The usync `status` protocol's answer for one user: the about, `code=401` when hidden from the asker. */
export const statusNode = (state: SimState, viewer: string, owner: string | undefined): BinaryNode => {
  const about = owner ? profileOf(state, owner).about : undefined
  if (!owner || !about) return { tag: 'status', attrs: { t: '0' } }
  if (!visibleTo(state, owner, viewer, 'about')) return { tag: 'status', attrs: { code: '401', t: '0' } }
  return { tag: 'status', attrs: { t: String(about.setAt) }, content: Buffer.from(about.text, 'utf-8') }
}

export const handleBusinessIq = (state: SimState, account: Account, node: BinaryNode): BinaryNode =>
  guarded(state, account, node, () => {
    const request = childOf(node, 'business_profile')
    const profiles = childrenOf(request).filter((child) => child.tag === 'profile')
    if (node.attrs.type !== 'get' || !request || profiles.length === 0)
      throw new Malformed('not a get of <business_profile> with <profile jid>')
    const answers = profiles.map((profile) => {
      const phone = userPhoneOf(state, profile.attrs.jid ?? '')
      const business = phone ? profileOf(state, phone).business : undefined
      return business ? businessNode(profile.attrs.jid!, business) : undefined
    })
    return iqResult(node, [
      {
        tag: 'business_profile',
        attrs: { v: request.attrs.v ?? '244' },
        content: answers.filter((answer): answer is BinaryNode => answer !== undefined),
      },
    ])
  })

const textNode = (tag: string, value: string | undefined): BinaryNode[] =>
  value === undefined ? [] : [{ tag, attrs: {}, content: Buffer.from(value, 'utf-8') }]

const businessNode = (jid: string, business: BusinessProfile): BinaryNode => ({
  tag: 'profile',
  attrs: { jid, tag: unixNow() },
  content: [
    ...textNode('address', business.address),
    ...textNode('description', business.description),
    ...textNode('website', business.website),
    ...textNode('email', business.email),
    ...(business.category
      ? [
          {
            tag: 'categories',
            attrs: {},
            content: [{ tag: 'category', attrs: { id: '1' }, content: Buffer.from(business.category, 'utf-8') }],
          },
        ]
      : []),
    ...(business.hours
      ? [
          {
            tag: 'business_hours',
            attrs: { timezone: business.hours.timezone },
            content: business.hours.days.map((day) => ({
              tag: 'business_hours_config',
              attrs: {
                day_of_week: day.day,
                mode: day.mode,
                ...(day.openMinutes !== undefined ? { open_time: String(day.openMinutes) } : {}),
                ...(day.closeMinutes !== undefined ? { close_time: String(day.closeMinutes) } : {}),
              },
            })),
          },
        ]
      : []),
  ],
})
