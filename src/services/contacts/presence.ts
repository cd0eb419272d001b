import { and, count, eq } from 'drizzle-orm'
import { presenceSubscriptions } from '../../db/schema'
import type { ContactPresence } from '../../engine/whatsapp/port/contacts'
import { GatewayError } from '../../errors'
import type { PersonAddress } from '../../schemas/phone'
import type { DbOrTx } from '../../webhooks/outbox'
import type { GatewayContext } from '../context'
import { engineFailure } from '../engine-failure'
import { connectedHandle } from '../sessions/connected'
import { findSession, sessionById } from '../sessions/view'
import { validationError } from '../validation-error'
import { noAccount } from './no-account'

/** Whose presence one session may follow: each is asked again at every login. */
export const MAX_PRESENCE_SUBSCRIPTIONS = 1_000

/**
 * Follows someone's presence: WhatsApp sends their state now and every change after, as
 * `presence.update` events (and their typing in chats with the account). Kept, and asked again
 * at each login, since WhatsApp forgets it with the connection. Idempotent.
 */
export async function subscribePresence(
  ctx: GatewayContext,
  args: { workspaceId: string; sessionId: string; phone: PersonAddress },
) {
  const { phone } = args
  const session = findSession(ctx, args.workspaceId, args.sessionId)
  const handle = connectedHandle(ctx, session)
  const own = phone.kind === 'phone' ? phone.digits === session.number : phone.jid === `${session.lid}@lid`
  if (own)
    throw validationError([{ path: 'phone', message: `the session's own ${phone.kind === 'lid' ? 'LID' : 'number'}` }])
  const where = and(eq(presenceSubscriptions.sessionId, session.id), eq(presenceSubscriptions.jid, phone.jid))
  const known = ctx.db.select().from(presenceSubscriptions).where(where).get()
  if (!known && followed(ctx, session.id) >= MAX_PRESENCE_SUBSCRIPTIONS)
    throw validationError([
      {
        path: 'phone',
        message: `this session follows ${MAX_PRESENCE_SUBSCRIPTIONS} people's presence already, the most it may`,
      },
    ])
  let lid: string | undefined
  try {
    if (phone.kind === 'phone') {
      const lookup = await handle.lookupPhone(phone.jid)
      if (!lookup.exists) throw new GatewayError('not_found', noAccount(phone), { field: 'phone' })
      lid = lookup.lid
    }
    await handle.contacts.subscribePresence(phone.jid)
  } catch (error) {
    if (error instanceof GatewayError) throw error
    throw engineFailure(error, {
      timeout: 'WhatsApp did not answer in time; the subscription was not made',
      upstream: 'WhatsApp refused the presence subscription',
      not_connected: 'The session went offline; the subscription was not made',
    })
  }
  ctx.db
    .insert(presenceSubscriptions)
    .values({ sessionId: session.id, jid: phone.jid, createdAt: ctx.clock.now() })
    .onConflictDoNothing()
    .run()
  return {
    sessionId: session.id,
    phone: phone.kind === 'phone' ? phone.digits : null,
    lid: phone.kind === 'lid' ? phone.jid : lid ? `${lid}@lid` : null,
    subscribed: true,
  }
}

/**
 * Stops following someone's presence: the row goes, and WhatsApp is told when the session is
 * connected (otherwise its next login simply does not ask again). Idempotent.
 */
export async function unsubscribePresence(
  ctx: GatewayContext,
  args: { workspaceId: string; sessionId: string; phone: PersonAddress },
) {
  const { phone } = args
  const session = findSession(ctx, args.workspaceId, args.sessionId)
  ctx.db
    .delete(presenceSubscriptions)
    .where(and(eq(presenceSubscriptions.sessionId, session.id), eq(presenceSubscriptions.jid, phone.jid)))
    .run()
  const handle = ctx.engine.session(session.id)
  if (session.status === 'connected' && handle?.online)
    await handle.contacts.unsubscribePresence(phone.jid).catch((error: unknown) => {
      // Not followed any more either way: this connection may hear of them until it closes.
      ctx.logger.warn({ err: error, sessionId: session.id }, 'could not tell WhatsApp of a presence unsubscribe')
    })
  return {
    sessionId: session.id,
    phone: phone.kind === 'phone' ? phone.digits : null,
    lid: phone.kind === 'lid' ? phone.jid : null,
    subscribed: false,
  }
}

const followed = (ctx: GatewayContext, sessionId: string) =>
  ctx.db.select({ n: count() }).from(presenceSubscriptions).where(eq(presenceSubscriptions.sessionId, sessionId)).get()
    ?.n ?? 0

/** After a login: asks WhatsApp again for every presence the session follows (it forgot them with the last connection). */
export async function resubscribePresence(ctx: GatewayContext, sessionId: string): Promise<void> {
  const rows = ctx.db
    .select({ jid: presenceSubscriptions.jid })
    .from(presenceSubscriptions)
    .where(eq(presenceSubscriptions.sessionId, sessionId))
    .all()
  const handle = ctx.engine.session(sessionId)
  if (!handle || rows.length === 0) return
  for (const { jid } of rows) {
    try {
      await handle.contacts.subscribePresence(jid)
    } catch (error) {
      ctx.logger.warn({ err: error, sessionId }, 'could not renew presence subscriptions after login')
      return // offline again: the next login renews them
    }
  }
}

/** Someone's presence or typing reached the session: a `presence.update` event. Nothing else is stored. */
export function onPresence(ctx: GatewayContext, sessionId: string, presence: ContactPresence): void {
  if (!sessionById(ctx.db, sessionId)) return
  ctx.db.transaction(
    (tx) =>
      void ctx.outbox.record(tx, {
        sessionId,
        type: 'presence.update',
        data: {
          phone: presence.phone ?? null,
          lid: presence.lid ? `${presence.lid}@lid` : null,
          group: presence.group ?? null,
          state: presence.state,
          lastSeen: presence.lastSeen?.toISOString() ?? null,
        },
      }),
    { behavior: 'immediate' },
  )
}

/** Unlink hook: another account linked later follows no one. */
export function forgetPresenceSubscriptions(tx: Pick<DbOrTx, 'delete'>, sessionId: string): void {
  tx.delete(presenceSubscriptions).where(eq(presenceSubscriptions.sessionId, sessionId)).run()
}
