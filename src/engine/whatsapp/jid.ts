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
