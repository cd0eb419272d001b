import { eq, inArray } from 'drizzle-orm'
import { sessions } from '../../db/schema'
import type { GatewayContext } from '../context'
import { transition } from './transitions'
import { awaitsUnlink, reconnectToUnlink } from './unlink'

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
  // Disconnected while offline before the restart: their devices still wait to be unlinked.
  const unlinking = ctx.db.select().from(sessions).where(eq(sessions.status, 'disconnected')).all().filter(awaitsUnlink)
  for (const session of unlinking) {
    await reconnectToUnlink(ctx, session.id).catch((error: unknown) => ctx.logger.error({ err: error, sessionId: session.id }, 'could not reopen to unlink'))
  }
}
