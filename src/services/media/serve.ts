import type { MessageRecord } from '../../db/schema'
import type { MediaSummary } from '../../shared/message-content'
import { GatewayError } from '../../errors'
import { type ByteRange, mediaKey } from '../../media/store'
import type { GatewayContext } from '../context'
import { findRecord } from '../messages/records/records'
import { findSession, sessionById } from '../sessions/view'
import { MEDIA_URL_SECRET } from './download-url'
import { downloadFromWhatsApp, forgetStored, isStored, mediaFailure, storeError, storeMedia } from './fetch'
import { gatewaySecret } from './secret'
import { verifyMediaToken } from './signed-url'

/** A received file ready to be served: what it is, and its bytes (or a range of them) on demand. */
export interface MediaFile {
  messageId: string
  media: MediaSummary
  /**
   * The bytes, checked: from the store (fetched from WhatsApp first when it does not hold them
   * yet), or without a store fetched and checked whole before the first byte is given.
   */
  open(range?: ByteRange): Promise<ReadableStream<Uint8Array>>
}

/** A received file of one of the workspace's sessions: GET /v1/message/{messageId}/media. */
export function messageMedia(
  ctx: GatewayContext,
  { workspaceId, sessionId, messageId }: { workspaceId: string; sessionId: string; messageId: string },
): MediaFile {
  const session = findSession(ctx, workspaceId, sessionId)
  return mediaFile(ctx, findRecord(ctx, session.id, messageId), messageId)
}

/** A received file by a signed URL (no API key): 403 for a token not ours or expired. */
export function signedMedia(ctx: GatewayContext, token: string): MediaFile {
  const verified = verifyMediaToken(token, gatewaySecret(ctx, MEDIA_URL_SECRET), ctx.clock.now())
  if (!verified.ok)
    throw new GatewayError(
      'forbidden',
      verified.reason === 'expired'
        ? 'This download link has expired; GET /v1/message/{messageId}/media serves the file with an API key'
        : 'This download link is not valid',
    )
  const { sessionId, messageId } = verified.claims
  const record = sessionById(ctx.db, sessionId) ? findRecord(ctx, sessionId, messageId) : undefined
  return mediaFile(ctx, record, messageId)
}

/** A received file of a record the caller already holds (the Chatwoot sink attaching it). */
export const recordMedia = (ctx: GatewayContext, record: MessageRecord): MediaFile => mediaFile(ctx, record, record.id)

function mediaFile(ctx: GatewayContext, record: MessageRecord | undefined, messageId: string): MediaFile {
  const shown = messageId.slice(0, 64)
  if (!record) throw new GatewayError('not_found', `Message "${shown}" not found`)
  const media = record.content.media
  if (!media || record.direction !== 'inbound')
    throw new GatewayError('not_found', `Message "${shown}" has no file to download (it is a ${record.type} message)`, {
      reason: 'no_media',
    })
  return { messageId: record.id, media, open: (range) => openFile(ctx, record, range) }
}

async function openFile(ctx: GatewayContext, record: MessageRecord, range?: ByteRange) {
  const store = ctx.inboundMedia.store
  if (!store) return fetchWhole(ctx, record, range)
  const key = mediaKey(record.sessionId, record.id)
  for (let attempt = 0; attempt < 2; attempt++) {
    if (!isStored(ctx, record.sessionId, record.id)) await storeMedia(ctx, record)
    const stream = await store.get(key, range).catch((error: unknown) => {
      throw storeError(ctx, error, { sessionId: record.sessionId, messageId: record.id, doing: 'read' })
    })
    if (stream) return stream
    forgetStored(ctx, record.sessionId, record.id)
  }
  throw new GatewayError('upstream_error', 'The media store lost the file as it was being stored; try again')
}

/** No store: the file is downloaded and checked whole (at most MEDIA_MAX_BYTES in memory), then served. */
async function fetchWhole(ctx: GatewayContext, record: MessageRecord, range?: ByteRange) {
  const download = await downloadFromWhatsApp(ctx, record)
  let bytes: Uint8Array
  try {
    bytes = new Uint8Array(await new Response(download.body).arrayBuffer())
  } catch (error) {
    throw mediaFailure(ctx, record, error)
  }
  const part = range ? bytes.subarray(range.start, range.end + 1) : bytes
  return new Response(part).body!
}
