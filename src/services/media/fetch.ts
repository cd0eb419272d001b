import { and, eq, sql } from 'drizzle-orm'
import type { MessageRecord } from '../../db/schema'
import { mediaFiles } from '../../db/schema'
import { EngineError, type MediaDownload, type MediaMessageRef } from '../../engine/whatsapp/port'
import { GatewayError } from '../../errors'
import { mediaKey, MediaStoreError } from '../../media/store'
import type { GatewayContext } from '../context'
import { replacePayload } from '../messages/records/records'
import { enforceStoreCap } from './prune'

/** The key WhatsApp knows a received message by (its media retry names it). */
function messageRef(record: MessageRecord, payload: Uint8Array): MediaMessageRef {
  const group = record.chatJid.endsWith('@g.us')
  // Groups: the author as the key had it, by LID when WhatsApp revealed one (as it addresses groups)
  const author = record.lid ? `${record.lid}@lid` : record.participant
  const participant = group && author ? (author.includes('@') ? author : `${author}@s.whatsapp.net`) : undefined
  return { id: record.id, chatJid: record.chatJid, fromMe: record.direction === 'outbound', participant, payload }
}

/** All a tenant is told of a download that failed (see mediaFailure). */
export const MEDIA_UNAVAILABLE =
  'The file could not be downloaded from WhatsApp. A file WhatsApp no longer has is asked of the ' +
  'session’s phone again while the session is connected; try again later. The gateway log says why.'

/**
 * The API error for a failed download (the engine's error, or one a stream carried as its
 * cause). Whatever WhatsApp's side did (a URL the message names refused, a redirect, an error
 * status, garbage, silence, a phone that could not upload the file again, a session offline
 * when it should be asked) the tenant hears one media_unavailable: a contact writes where its
 * file is, so any difference would tell what answers there. Why goes to the operator's log.
 * Only what the message itself says before anything is fetched differs (too large, no file).
 */
export function mediaFailure(ctx: GatewayContext, record: MessageRecord, error: unknown): GatewayError {
  const cause = error instanceof EngineError ? error : ((error as { cause?: unknown })?.cause ?? error)
  if (cause instanceof EngineError && cause.kind === 'too_large')
    return new GatewayError(
      'payload_too_large',
      `The file is larger than MEDIA_MAX_BYTES (${ctx.config.media.maxBytes} bytes)`,
    )
  if (cause instanceof EngineError && cause.kind === 'no_media')
    return new GatewayError('not_found', 'This message has no file')
  ctx.logger.warn(
    { sessionId: record.sessionId, messageId: record.id, reason: (cause as Error)?.message ?? String(cause) },
    'a received file could not be downloaded',
  )
  return new GatewayError('media_unavailable', MEDIA_UNAVAILABLE)
}

/**
 * Downloads a record's file from WhatsApp. When the CDN dropped it (404/410), asks the
 * session's phone to upload it again (media retry), keeps the new location on the record, and
 * tries once more. Every failure is the one media_unavailable (see mediaFailure): a file still
 * gone, a phone that does not answer within MEDIA_RETRY_TIMEOUT_MS, a session not connected.
 */
export async function downloadFromWhatsApp(ctx: GatewayContext, record: MessageRecord): Promise<MediaDownload> {
  if (!record.payload) throw new GatewayError('not_found', `Message "${record.id.slice(0, 64)}" has no file`)
  const options = {
    maxBytes: ctx.config.media.maxBytes,
    idleTimeoutMs: ctx.config.media.timeoutMs,
    signal: ctx.inboundMedia.stopping.signal,
  }
  const attempt = (payload: Uint8Array) => ctx.engine.downloadMedia(record.sessionId, payload, options)
  try {
    return await attempt(record.payload)
  } catch (error) {
    if (!(error instanceof EngineError && error.kind === 'gone')) throw mediaFailure(ctx, record, error)
  }
  const handle = ctx.engine.session(record.sessionId)
  if (!handle?.online)
    throw mediaFailure(ctx, record, new Error('the file is gone from the CDN and the session is not connected'))
  let payload: Uint8Array
  try {
    payload = await handle.reuploadMedia(messageRef(record, record.payload), ctx.config.inboundMedia.retryTimeoutMs)
  } catch (error) {
    throw mediaFailure(ctx, record, error)
  }
  replacePayload(ctx, record.sessionId, record.id, payload)
  ctx.logger.info({ sessionId: record.sessionId, messageId: record.id }, 'media uploaded again by the phone')
  try {
    return await attempt(payload)
  } catch (error) {
    throw mediaFailure(ctx, record, error)
  }
}

/** Whether the store holds the record's file (as far as its table knows). */
export function isStored(ctx: GatewayContext, sessionId: string, messageId: string): boolean {
  return (
    ctx.db
      .select({ size: mediaFiles.size })
      .from(mediaFiles)
      .where(and(eq(mediaFiles.sessionId, sessionId), eq(mediaFiles.messageId, messageId)))
      .get() !== undefined
  )
}

/** The store lost a file its table lists (removed by hand, a bucket lifecycle rule): forget it, so it is fetched again. */
export function forgetStored(ctx: GatewayContext, sessionId: string, messageId: string): void {
  ctx.db
    .delete(mediaFiles)
    .where(and(eq(mediaFiles.sessionId, sessionId), eq(mediaFiles.messageId, messageId)))
    .run()
}

/**
 * Puts a record's file into the store: fetched, checked while it streams, written whole or not
 * at all, then listed in media_files (and the cap enforced). One fetch per file at a time:
 * concurrent callers share it.
 */
export function storeMedia(ctx: GatewayContext, record: MessageRecord): Promise<void> {
  const store = ctx.inboundMedia.store
  if (!store) return Promise.reject(new Error('no media store'))
  const flight = `${record.sessionId}\0${record.id}`
  const running = ctx.inboundMedia.inFlight.get(flight)
  if (running) return running
  const work = (async () => {
    const download = await downloadFromWhatsApp(ctx, record)
    try {
      await store.put(mediaKey(record.sessionId, record.id), download.body, download.size)
    } catch (error) {
      throw storeFailure(ctx, record, error)
    }
    ctx.db
      .insert(mediaFiles)
      .values({ sessionId: record.sessionId, messageId: record.id, size: download.size, storedAt: ctx.clock.now() })
      .onConflictDoUpdate({
        target: [mediaFiles.sessionId, mediaFiles.messageId],
        set: { size: download.size, storedAt: sql`excluded.stored_at` },
      })
      .run()
    await enforceStoreCap(ctx, { keep: record })
  })().finally(() => ctx.inboundMedia.inFlight.delete(flight))
  ctx.inboundMedia.inFlight.set(flight, work)
  return work
}

/** A failed put: the download's own failure (a check, the CDN) when that is what broke it, else the store's. */
function storeFailure(ctx: GatewayContext, record: MessageRecord, error: unknown): GatewayError {
  const cause = error instanceof EngineError ? error : (error as { cause?: unknown })?.cause
  if (cause instanceof EngineError) return mediaFailure(ctx, record, cause)
  return storeError(ctx, error, { sessionId: record.sessionId, messageId: record.id, doing: 'keep' })
}

/**
 * The API error for a store that failed (one home for every path: put, get): 504 when it kept us
 * waiting past its deadline, 502 otherwise (unreachable, an error answer, a local disk error),
 * never a 500. Logged with the store's message, which carries no credential.
 */
export function storeError(
  ctx: GatewayContext,
  error: unknown,
  { sessionId, messageId, doing }: { sessionId: string; messageId: string; doing: 'keep' | 'read' },
): GatewayError {
  const timedOut = error instanceof MediaStoreError && error.kind === 'timeout'
  ctx.logger[error instanceof MediaStoreError ? 'warn' : 'error'](
    { err: error, sessionId, messageId },
    doing === 'keep' ? 'the media store refused a file' : 'the media store could not serve a file',
  )
  const what = doing === 'keep' ? 'keep the file' : 'serve the file'
  return timedOut
    ? new GatewayError('upstream_timeout', `The media store did not answer in time to ${what}; try again`)
    : new GatewayError('upstream_error', `The media store could not ${what}; see the gateway log`)
}
