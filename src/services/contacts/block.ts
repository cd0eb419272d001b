import type { BlockedUser } from '../../engine/whatsapp/port/contacts'
import { GatewayError } from '../../errors'
import type { PersonAddress } from '../../schemas/phone'
import type { GatewayContext } from '../context'
import { engineFailure } from '../engine-failure'
import { connectedHandle } from '../sessions/connected'
import { findSession } from '../sessions/view'
import { noAccount } from './no-account'
import { validationError } from '../validation-error'

const blockedView = (user: BlockedUser) => ({ phone: user.phone ?? null, lid: user.lid ? `${user.lid}@lid` : null })

/**
 * Blocks or unblocks someone: WhatsApp stops relaying their messages and calls to the account and
 * hides its photo and about from them. Idempotent: blocking someone already blocked (or
 * unblocking someone who is not) asks WhatsApp again and answers the same. Someone without a
 * WhatsApp account is 404; the session's own number is 400.
 */
export async function setContactBlocked(
  ctx: GatewayContext,
  args: { workspaceId: string; sessionId: string; phone: PersonAddress; blocked: boolean },
) {
  const { phone, blocked } = args
  const session = findSession(ctx, args.workspaceId, args.sessionId)
  const handle = connectedHandle(ctx, session)
  const own = phone.kind === 'phone' ? phone.digits === session.number : phone.jid === `${session.lid}@lid`
  if (own)
    throw validationError([{ path: 'phone', message: `the session's own ${phone.kind === 'lid' ? 'LID' : 'number'}` }])
  let user: BlockedUser | null
  try {
    user = await handle.contacts.setBlocked(phone.jid, blocked)
  } catch (error) {
    throw engineFailure(error, {
      timeout: `WhatsApp did not answer the ${blocked ? 'block' : 'unblock'} in time; it may have applied (GET /v1/contact/blocked tells)`,
      upstream: `WhatsApp refused the ${blocked ? 'block' : 'unblock'}`,
      not_connected: 'The session went offline before WhatsApp answered',
      not_found:
        phone.kind === 'lid' && blocked
          ? `This session does not know the number behind ${phone.input}, which WhatsApp needs to block it; block it by number`
          : noAccount(phone),
    })
  }
  if (!user) throw new GatewayError('not_found', noAccount(phone), { field: 'phone' })
  return { ...blockedView(user), blocked }
}

/** The account's block list, as WhatsApp keeps it (blocks made on the phone included). */
export async function listBlocked(ctx: GatewayContext, args: { workspaceId: string; sessionId: string }) {
  const session = findSession(ctx, args.workspaceId, args.sessionId)
  const handle = connectedHandle(ctx, session)
  try {
    return { blocked: (await handle.contacts.blocked()).map(blockedView) }
  } catch (error) {
    throw engineFailure(error, {
      timeout: 'WhatsApp did not answer the block list query in time',
      upstream: 'WhatsApp answered the block list query with an error',
      not_connected: 'The session went offline before WhatsApp answered',
    })
  }
}
