import { jidDecode, type WASocket } from '@whiskeysockets/baileys'
import { checkNumbers } from './number-check'
import type { PhoneLookup } from '../port'

const userOf = (jid: string | null | undefined) => (jid ? jidDecode(jid)?.user : undefined)

/** The number WhatsApp maps a LID to, from what this account learned (inbound messages, checks, sends). */
export async function phoneForLid(socket: WASocket, lidJid: string): Promise<string | undefined> {
  return userOf(await socket.signalRepository.lidMapping.getPNForLID(lidJid))
}

/**
 * Whether a phone number has a WhatsApp account, with its LID: from the account's LID mapping
 * (kept by Baileys; a miss asks WhatsApp), else one contact query, which also answers accounts
 * WhatsApp gives no LID for.
 */
export async function lookupPhone(socket: WASocket, phoneJid: string): Promise<PhoneLookup> {
  const lid = userOf(await socket.signalRepository.lidMapping.getLIDForPN(phoneJid))
  if (lid) return { exists: true, lid }
  const digits = userOf(phoneJid)
  if (!digits) return { exists: false }
  const [answer] = await checkNumbers(socket, [digits])
  return answer?.exists ? { exists: true, ...(answer.lid ? { lid: userOf(answer.lid) } : {}) } : { exists: false }
}
