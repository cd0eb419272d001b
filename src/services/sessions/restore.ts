import { eq, inArray } from 'drizzle-orm'
import { liveStatuses, sessions, type Session } from '../../db/schema'
import type { GatewayContext } from '../context'
import { sessionProxy } from './proxy'
import { historyAsk } from '../history/setting'
import { transition } from './transitions'
import { awaitsUnlink, reconnectToUnlink } from './unlink'

/**
 * After a restart: every session with credentials reconnects by itself (connecting →
 * connected, no QR); a pairing that was under way died with the old process (expired).
 * Every restorable session is marked `connecting` at once, then reopened at most
 * `restoreConcurrency` at a time, each holding its turn until it is connected or closed (or
 * `connectTimeoutMs` passed): a thousand sessions do not all handshake in the same second.
 * Resolves when every session had its turn, or soon after `signal` aborts (gateway stop).
 */
export async function restoreSessions(ctx: GatewayContext, signal?: AbortSignal): Promise<void> {
  const live = ctx.db.select().from(sessions).where(inArray(sessions.status, liveStatuses)).all()
  const queue: Session[] = []
  for (const session of live) {
    if (!ctx.engine.hasCredentials(session.id)) {
      ctx.engine.wipeCredentials(session.id) // half-written pairing keys
      transition(ctx, session.id, { status: 'expired', reason: 'gateway_restarted' })
      continue
    }
    transition(ctx, session.id, { status: 'connecting', reason: 'gateway_restarted' })
    queue.push(session)
  }
  if (queue.length > 0)
    ctx.logger.info(
      { sessions: queue.length, concurrency: ctx.config.restoreConcurrency },
      'restoring sessions after start',
    )
  await reopenBounded(ctx, queue, signal)
  if (signal?.aborted) return
  // Disconnected while offline before the restart: their devices still wait to be unlinked.
  const unlinking = ctx.db.select().from(sessions).where(eq(sessions.status, 'disconnected')).all().filter(awaitsUnlink)
  for (const session of unlinking) {
    await reconnectToUnlink(ctx, session.id).catch((error: unknown) =>
      ctx.logger.error({ err: error, sessionId: session.id }, 'could not reopen to unlink'),
    )
  }
}

async function reopenBounded(ctx: GatewayContext, queue: Session[], signal?: AbortSignal): Promise<void> {
  // One listener for the whole restore: a session's turn ends when it leaves `connecting`.
  const waiting = new Map<string, () => void>()
  const off = ctx.events.on('session.status', (event) => {
    if (event.status !== 'connecting') waiting.get(event.sessionId)?.()
  })
  const aborted = new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }))
  let next = 0
  const worker = async () => {
    while (next < queue.length && !signal?.aborted) {
      const session = queue[next++]!
      let timer: NodeJS.Timeout | undefined
      const settled = new Promise<void>((resolve) => {
        waiting.set(session.id, resolve)
        timer = setTimeout(resolve, ctx.config.connectTimeoutMs)
      })
      try {
        await ctx.engine.open(session.id, {
          mode: session.pairingMode,
          autoRejectCalls: session.autoRejectCalls,
          proxy: sessionProxy(ctx, session),
          history: historyAsk(session),
        })
        await Promise.race([settled, aborted])
      } catch (error) {
        ctx.logger.error({ err: error, sessionId: session.id }, 'could not reopen session')
      } finally {
        clearTimeout(timer)
        waiting.delete(session.id)
      }
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.min(ctx.config.restoreConcurrency, queue.length) }, worker))
  } finally {
    off()
  }
}
