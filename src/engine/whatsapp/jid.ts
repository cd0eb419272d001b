import { isJidGroup, isLidUser, jidDecode } from '@whiskeysockets/baileys'

/** Who a chat (or a group participant) is, from the jid WhatsApp used and its alternate form. */
export interface ChatParty {
  group: boolean
  phone?: string
  lid?: string
}

const userOf = (jid: string | undefined | null) => (jid ? jidDecode(jid)?.user : undefined)

/**
 * Pure. WhatsApp addresses a person by phone number (`…@s.whatsapp.net`) or, in chats that
 * migrated, by LID (`…@lid`); Baileys gives the other form as the `…Alt` field when it knows it.
 */
export function chatParty(jid: string, alt?: string | null): ChatParty {
  if (isJidGroup(jid)) return { group: true }
  const [pnJid, lidJid] = isLidUser(jid) ? [alt, jid] : [jid, isLidUser(alt ?? undefined) ? alt : undefined]
  const phone = userOf(pnJid)
  const lid = userOf(lidJid)
  return { group: false, ...(phone ? { phone } : {}), ...(lid ? { lid } : {}) }
}

/** The linked account's own number and LID (`…@s.whatsapp.net`, `…@lid`, no device part). */
export interface OwnJids {
  pnJid?: string
  lidJid?: string
}

/** Pure: Baileys' `socket.user` (`<pn>:<device>@s.whatsapp.net`, `<lid>:<device>@lid`) → the account's jids. */
export function ownJids(user: { id?: string; lid?: string } | undefined): OwnJids {
  const pn = userOf(user?.id)
  const lid = userOf(user?.lid)
  return { ...(pn ? { pnJid: `${pn}@s.whatsapp.net` } : {}), ...(lid ? { lidJid: `${lid}@lid` } : {}) }
}

/** Who wrote a message (or reaction, or vote), from its key: the account itself when fromMe. */
export function authorOf(
  key: {
    remoteJid?: string | null
    remoteJidAlt?: string | null
    participant?: string | null
    participantAlt?: string | null
    fromMe?: boolean | null
  },
  own: OwnJids,
): ChatParty {
  if (key.fromMe) return chatParty(own.pnJid ?? own.lidJid ?? '', own.pnJid ? own.lidJid : undefined)
  if (key.participant) return chatParty(key.participant, key.participantAlt)
  return chatParty(key.remoteJid ?? '', key.remoteJidAlt)
}
