import type { Session } from '../../db/schema'
import { backoffDelay } from '../../shared/backoff'
import type { SessionHandle } from '../../engine/whatsapp/port'
import type { GatewayContext } from '../context'
import { sessionProxy } from './proxy'
import { sessionById } from './view'

/**
 * A session the client disconnected whose device is still linked on the phone: it was
 * offline at that moment, so the credentials are kept until WhatsApp has been told.
 */
export const awaitsUnlink = (session: Pick<Session, 'status' | 'statusReason'> | undefined) =>
  session?.status === 'disconnected' && session.statusReason === 'client_request'

const sessionRow = (ctx: GatewayContext, sessionId: string) => sessionById(ctx.db, sessionId)

/**
 * Connects only to remove the companion device: the login is reported as `opened`, which
 * (the session being disconnected) calls unlinkNow instead of bringing the session back;
 * closes on the way reconnect with backoff (see facts.ts). The status stays `disconnected`.
 */
export async function reconnectToUnlink(ctx: GatewayContext, sessionId: string): Promise<void> {
  const session = sessionRow(ctx, sessionId)
  if (!awaitsUnlink(session) || !ctx.engine.hasCredentials(sessionId)) return
  ctx.logger.info({ sessionId }, 'reconnecting only to unlink the device')
  await ctx.engine.open(sessionId, {
    mode: session!.pairingMode,
    autoRejectCalls: false,
    proxy: sessionProxy(ctx, session!),
  })
}

/** Tells WhatsApp to remove the device, then wipes the credentials; on failure tries again later. */
export async function unlinkNow(
  ctx: GatewayContext,
  sessionId: string,
  handle: SessionHandle,
  attempt = 1,
): Promise<void> {
  try {
    await handle.unlink()
    ctx.engine.wipeCredentials(sessionId)
    ctx.logger.info({ sessionId }, 'device unlinked at WhatsApp; credentials wiped')
  } catch (error) {
    const delayMs = backoffDelay(attempt, ctx.config.reconnect)
    ctx.logger.warn({ err: error, sessionId, delayMs }, 'unlink did not reach WhatsApp; will try again')
    setTimeout(
      () =>
        void reconnectToUnlink(ctx, sessionId).catch((e: unknown) =>
          ctx.logger.error({ err: e, sessionId }, 'unlink retry failed'),
        ),
      delayMs,
    ).unref()
  }
}
