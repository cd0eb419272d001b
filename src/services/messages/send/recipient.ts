import type { SessionHandle } from '../../../engine/whatsapp/port'
import { GatewayError } from '../../../errors'
import { type ChatAddress, countryCodeHint } from '../../../schemas/phone'
import { engineFailure } from '../../engine-failure'

/** A recipient as a record names it: the chat, the number and the LID, each where known. */
export interface Recipient {
  chatJid: string
  phone: string | null
  lid: string | null
}

const OFFLINE = 'The session went offline before the message was handed over; nothing was sent or recorded'

/** E.164 numbers have at most 15 digits and LIDs as many; past 13, a LID pasted bare is likely. */
const LIKELY_LID_DIGITS = 13

/**
 * Who a send goes to, checked as the hand-over begins (a refusal leaves nothing recorded):
 * - a number must have a WhatsApp account (asked once, then known): a message to a number that
 *   has none would be acknowledged by the server and delivered never, and a LID pasted without
 *   its `@lid` is such a number;
 * - a LID gets its number when this account knows it (from a message, a check, a send).
 */
export async function resolveRecipient(handle: SessionHandle, address: ChatAddress): Promise<Recipient> {
  if (address.kind === 'group' || address.kind === 'status')
    return { chatJid: address.jid, phone: address.jid, lid: null }
  if (address.kind === 'channel') return channelRecipient(handle, address.jid)
  try {
    if (address.kind === 'lid') {
      const phone = await handle.phoneForLid(address.jid)
      return { chatJid: address.jid, phone: phone ?? null, lid: address.jid.split('@')[0]! }
    }
    const found = await handle.lookupPhone(address.jid)
    if (found.exists) return { chatJid: address.jid, phone: address.digits, lid: found.lid ?? null }
  } catch (error) {
    // As for the hand-over: a session that is no longer online is the one rule, whatever was thrown.
    if (!handle.online) throw new GatewayError('session_not_connected', OFFLINE)
    throw engineFailure(error, {
      timeout: 'WhatsApp did not answer who the recipient is; nothing was sent or recorded',
      upstream: 'WhatsApp refused to say who the recipient is; nothing was sent or recorded',
      not_connected: OFFLINE,
    })
  }
  const countryCode = countryCodeHint(address)
  const hint = countryCode
    ? `; ${countryCode}`
    : address.digits.length >= LIKELY_LID_DIGITS
      ? `; if it is a LID, send it as "${address.digits}@lid"`
      : ''
  throw new GatewayError(
    'not_found',
    `${address.digits} has no WhatsApp account${hint}; nothing was sent or recorded`,
    {
      field: 'phone',
    },
  )
}

/**
 * A channel takes posts from its owner and admins only: asked of WhatsApp before the hand-over
 * (a refusal leaves nothing recorded), since WhatsApp would only refuse the stanza in its ack.
 */
async function channelRecipient(handle: SessionHandle, jid: string): Promise<Recipient> {
  const channel = await handle.channels.info({ jid }).catch((error: unknown) => {
    if (!handle.online) throw new GatewayError('session_not_connected', OFFLINE)
    throw engineFailure(error, {
      timeout: 'WhatsApp did not answer who runs the channel; nothing was sent or recorded',
      upstream: 'WhatsApp refused to say who runs the channel; nothing was sent or recorded',
      not_connected: OFFLINE,
    })
  })
  if (!channel) throw new GatewayError('not_found', `WhatsApp knows no channel ${jid}; nothing was sent or recorded`)
  if (channel.role !== 'owner' && channel.role !== 'admin')
    throw new GatewayError(
      'forbidden',
      `Only a channel's owner and admins post to it; the account is its ${channel.role}. Nothing was sent or recorded`,
      { role: channel.role },
    )
  return { chatJid: jid, phone: jid, lid: null }
}
