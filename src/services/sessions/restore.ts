import { inArray } from 'drizzle-orm'
import { sessions } from '../../db/schema'
import type { GatewayContext } from '../context'
import { transition } from './transitions'

/**
 * After a restart: every session with credentials reconnects by itself (connecting →
 * connected, no QR); a pairing that was under way died with the old process (expired).
 */
export async function restoreSessions(ctx: GatewayContext): Promise<void> {
  const live = ctx.db
    .select()
    .from(sessions)
    .where(inArray(sessions.status, ['pending', 'connecting', 'connected']))
    .all()
  for (const session of live) {
    if (!ctx.engine.hasCredentials(session.id)) {
      ctx.engine.wipeCredentials(session.id) // half-written pairing keys
      transition(ctx, session.id, { status: 'expired', reason: 'gateway_restarted' })
      continue
    }
    transition(ctx, session.id, { status: 'connecting', reason: 'gateway_restarted' })
    try {
      await ctx.engine.open(session.id, { mode: session.pairingMode, autoRejectCalls: session.autoRejectCalls })
    } catch (error) {
      ctx.logger.error({ err: error, sessionId: session.id }, 'could not reopen session')
    }
  }
  if (live.length > 0) ctx.logger.info({ sessions: live.length }, 'sessions restored after start')
}
