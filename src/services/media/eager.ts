import type { MessageContent } from '../../shared/message-content'
import { GatewayError } from '../../errors'
import type { GatewayContext } from '../context'
import { findRecord } from '../messages/records/records'
import { storeMedia } from './fetch'

/**
 * How long an eager fetch may hold its message.received back: a stalled download
 * (MEDIA_TIMEOUT_MS), the phone's re-upload (MEDIA_RETRY_TIMEOUT_MS) and the second download.
 * Past it the event goes anyway (the file is then fetched on its first request, as in lazy mode);
 * after a crash the held delivery goes out at this time by itself.
 */
export const eagerHoldMs = (ctx: GatewayContext) =>
  2 * ctx.config.media.timeoutMs + ctx.config.inboundMedia.retryTimeoutMs

/** Whether a received message's file is fetched as it arrives, its event held until then. */
export function holdsForMedia(ctx: GatewayContext, content: MessageContent): boolean {
  return (
    ctx.config.inboundMedia.download === 'eager' && content.media !== undefined && ctx.inboundMedia.store !== undefined
  )
}

/**
 * MEDIA_DOWNLOAD=eager: fetches a received message's file into the store after its record
 * committed (never on the inbound path itself, which must return before Baileys sends the
 * receipt), a few at a time, then lets its held message.received go, whether the fetch
 * worked or not (a failed one is tried again on the first request).
 */
export function fetchEagerly(ctx: GatewayContext, sessionId: string, messageId: string, eventId: string | null): void {
  const release = () => {
    if (eventId) ctx.outbox.release(sessionId, eventId)
  }
  void ctx.inboundMedia.eager
    .run(async () => {
      const record = findRecord(ctx, sessionId, messageId)
      if (record) await storeMedia(ctx, record)
    })
    .catch((error: unknown) => {
      const level = error instanceof GatewayError ? 'warn' : 'error'
      ctx.logger[level](
        { err: error, sessionId, messageId },
        'eager media fetch failed; the file is fetched on request',
      )
    })
    .finally(() => {
      try {
        release()
      } catch (error) {
        ctx.logger.error({ err: error, sessionId, messageId }, 'could not release a held message.received')
      }
    })
}
