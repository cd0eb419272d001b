import { eq, inArray } from 'drizzle-orm'
import { sessions } from '../../db/schema'
import type { EngineEvent } from '../../engine/whatsapp/types'
import type { GatewayContext } from '../context'
import { setSessionStatus } from './status'

const workspaceOf = (ctx: GatewayContext, sessionId: string) =>
  ctx.db.select({ workspaceId: sessions.workspaceId }).from(sessions).where(eq(sessions.id, sessionId)).get()?.workspaceId

/** Turns what the engine reports into persisted state and gateway events. */
export function applyEngineEvent(ctx: GatewayContext, event: EngineEvent): void {
  switch (event.type) {
    case 'status':
      setSessionStatus(ctx, event.sessionId, event)
      return
    case 'qr': {
      const workspaceId = workspaceOf(ctx, event.sessionId)
      if (workspaceId) ctx.events.emit('session.qr', { sessionId: event.sessionId, workspaceId, qr: event.qr, at: ctx.clock.now() })
      return
    }
    case 'call': {
      const workspaceId = workspaceOf(ctx, event.sessionId)
      if (!workspaceId) return
      const { type: _, ...call } = event
      ctx.events.emit('call.received', { ...call, workspaceId, at: ctx.clock.now() })
      return
    }
  }
}

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
      await ctx.engine.logout(session.id) // wipes any half-written pairing keys
      setSessionStatus(ctx, session.id, { status: 'expired', reason: 'gateway_restarted' })
      continue
    }
    setSessionStatus(ctx, session.id, { status: 'connecting', reason: 'gateway_restarted' })
    try {
      await ctx.engine.open(session.id, { mode: session.pairingMode, autoRejectCalls: session.autoRejectCalls })
    } catch (error) {
      ctx.logger.error({ err: error, sessionId: session.id }, 'could not reopen session')
    }
  }
  if (live.length > 0) ctx.logger.info({ sessions: live.length }, 'sessions restored after start')
}
