// How the server writes a group and its members in <iq> answers and <notification>s: LID
// addressing like current WhatsApp groups (each participant by LID, with its phone number).
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { Group, SimState } from './state'

/** A user the network knows (an account or a contact), as a group lists it. */
export interface Member {
  phone: string
  lidJid: string
  pnJid: string
  isAccount: boolean
}

export const memberOf = (state: SimState, phone: string): Member | undefined => {
  const account = state.accounts.get(phone)
  if (account) return { phone, lidJid: account.lidJid, pnJid: account.pnJid, isAccount: true }
  const contact = state.contacts.get(phone)
  return contact ? { phone, lidJid: contact.lidJid, pnJid: contact.pnJid, isAccount: false } : undefined
}

/** The user a participant jid names (`<pn>@s.whatsapp.net` or `<lid>@lid`), or undefined when nobody has it. */
export const memberByJid = (state: SimState, jid: string): Member | undefined => {
  const [user = '', server = ''] = jid.split('@')
  if (server !== 's.whatsapp.net' && server !== 'lid') return undefined
  const { account, contact } = state.lookupUser(user, server)
  const phone = account?.phone ?? contact?.phone
  return phone ? memberOf(state, phone) : undefined
}

/** A user jid a client may name as a participant: `<digits>@s.whatsapp.net` or `<digits>@lid`, no device. */
export const isUserJid = (jid: string | undefined): jid is string =>
  typeof jid === 'string' && /^\d{1,24}@(s\.whatsapp\.net|lid)$/.test(jid)

export const roleOf = (group: Group, phone: string): 'superadmin' | 'admin' | undefined =>
  phone === group.owner ? 'superadmin' : group.admins.has(phone) ? 'admin' : undefined

export const isAdmin = (group: Group, phone: string): boolean => roleOf(group, phone) !== undefined

/** One member as a notification names it. */
export const participantNode = (member: Member): BinaryNode => ({
  tag: 'participant',
  attrs: { jid: member.lidJid, phone_number: member.pnJid },
})

/** The full <group> node: metadata answers, the participating list, create answers and notifications. */
export const groupNode = (state: SimState, group: Group, extra: BinaryNode[] = []): BinaryNode => {
  const owner = group.owner ? memberOf(state, group.owner) : undefined
  const subjectOwner = group.subjectOwner ? memberOf(state, group.subjectOwner) : undefined
  const participants: BinaryNode[] = group.participants.flatMap((phone) => {
    const member = memberOf(state, phone)
    if (!member) return []
    const type = roleOf(group, phone)
    return [{ ...participantNode(member), attrs: { ...participantNode(member).attrs, ...(type ? { type } : {}) } }]
  })
  const settings: BinaryNode[] = [
    ...(group.announce ? [{ tag: 'announcement', attrs: {} }] : []),
    ...(group.restrict ? [{ tag: 'locked', attrs: {} }] : []),
  ]
  const description: BinaryNode[] = group.description
    ? [
        {
          tag: 'description',
          attrs: { id: group.description.id, t: String(group.description.time) },
          content: [{ tag: 'body', attrs: {}, content: Buffer.from(group.description.text, 'utf-8') }],
        },
      ]
    : []
  return {
    tag: 'group',
    attrs: {
      id: group.jid.split('@')[0] ?? group.jid,
      subject: group.subject,
      s_t: String(group.subjectTime),
      ...(subjectOwner ? { s_o: subjectOwner.lidJid, s_o_pn: subjectOwner.pnJid } : {}),
      creation: String(group.createdAt),
      ...(owner ? { creator: owner.lidJid, creator_pn: owner.pnJid } : {}),
      addressing_mode: 'lid',
      size: String(participants.length),
    },
    content: [...participants, ...description, ...settings, ...extra],
  }
}
