import { Readable } from 'node:stream'
import { createInflate } from 'node:zlib'
import { proto } from '@whiskeysockets/baileys'
import { downloadAttachment, type MediaHosts } from '../media/media-download'
import type { MediaFetch } from '../media/media-fetch'
import { EngineError } from '../port'
import type { HistoryPart, HistoryReadOptions } from '../port/history'
import { conversationParts, historyChat, mappingOf, pushNameOf } from './history-parts'
import { streamFields } from './proto-fields'

/** HistorySync's fields read (WAProto.proto): conversations, push names, LID mappings. */
const CONVERSATIONS = 2
const PUSH_NAMES = 7
const LID_MAPPINGS = 15
const WANTED = new Set([CONVERSATIONS, PUSH_NAMES, LID_MAPPINGS])
/** One conversation of a chunk at most (WhatsApp's are far smaller: a chunk is a few MB). */
const MAX_CONVERSATION_BYTES = 32 * 1024 * 1024
/** Inflated bytes handed on at a time. */
const INFLATE_CHUNK = 64 * 1024

/** A chat's privacy token as history gives it (Conversation.tcToken). */
export interface HistoryTcToken {
  /** The chat as the conversation names it. */
  jid: string
  token: Uint8Array
  /** Seconds. */
  timestamp: number
  senderTimestamp?: number
}

export interface HistoryReadDeps {
  fetchMedia: MediaFetch
  hosts: MediaHosts
  /** Phone ↔ LID pairs the chunk names, for the live socket's LID store (sends to them need it). */
  onMappings(pairs: { phone: string; lid: string }[]): void
  /** The chats' privacy tokens, for the live socket's key store (1:1 sends carry them). */
  onTcTokens(tokens: HistoryTcToken[]): void
  now(): Date
}

/**
 * A history chunk, read: the file is downloaded and checked whole (MAC, hashes, length) before
 * a byte of it is inflated, so a tampered file stores nothing; it is only as large as the
 * compressed chunk. It is then inflated and decoded as it goes, one conversation at a time,
 * counting inflated bytes: past `maxInflatedBytes` the read stops (too_large) and the parts
 * given so far stand. Memory: the compressed file, one conversation, one batch.
 */
export async function* readHistoryChunk(
  encodedNotification: Uint8Array,
  deps: HistoryReadDeps,
  options: HistoryReadOptions,
): AsyncGenerator<HistoryPart> {
  const notification = proto.Message.HistorySyncNotification.decode(encodedNotification)
  if (notification.mediaKey?.length !== 32 || notification.fileSha256?.length !== 32 || !notification.directPath)
    throw new EngineError('corrupt', 'the history notification names no file to download')
  const download = await downloadAttachment(
    { keyType: 'md-msg-hist', media: notification },
    deps.fetchMedia,
    deps.hosts,
    { maxBytes: options.maxFileBytes, idleTimeoutMs: options.idleTimeoutMs, signal: options.signal },
  )
  const compressed = Buffer.from(await new Response(download.body).arrayBuffer())
  yield* historyParts(inflated(compressed, options.maxInflatedBytes), deps, options)
}

/** The chunk inflated, a piece at a time; past `budget` bytes it errors (too_large). */
async function* inflated(compressed: Buffer, budget: number): AsyncGenerator<Uint8Array> {
  const inflater = Readable.from([compressed]).pipe(createInflate({ chunkSize: INFLATE_CHUNK }))
  let total = 0
  try {
    for await (const piece of inflater as AsyncIterable<Buffer>) {
      total += piece.byteLength
      if (total > budget)
        throw new EngineError('too_large', `the history chunk inflates past its budget of ${budget} bytes`)
      yield piece
    }
  } catch (error) {
    if (error instanceof EngineError) throw error
    throw new EngineError('corrupt', `the history chunk does not inflate: ${(error as Error).message}`)
  } finally {
    inflater.destroy()
  }
}

/** Pure but for `deps.onMappings`: a HistorySync's parts from its inflated bytes. */
export async function* historyParts(
  bytes: AsyncIterable<Uint8Array>,
  deps: Pick<HistoryReadDeps, 'onMappings' | 'onTcTokens' | 'now'>,
  options: Pick<HistoryReadOptions, 'batchSize'>,
): AsyncGenerator<HistoryPart> {
  let names: { phone?: string; lid?: string; pushName: string }[] = []
  let pairs: { phone: string; lid: string }[] = []
  for await (const field of streamFields(bytes, { wanted: WANTED, maxFieldBytes: MAX_CONVERSATION_BYTES })) {
    if ('oversized' in field) throw new EngineError('too_large', `a history conversation of ${field.oversized} bytes`)
    if (!('bytes' in field)) continue
    if (field.field === CONVERSATIONS) {
      const conversation = decode(() => proto.Conversation.decode(field.bytes))
      const chat = historyChat(conversation, deps.now())
      if (!chat) continue
      if (chat.phone && chat.lid) pairs.push({ phone: chat.phone, lid: chat.lid })
      const token = tcTokenOf(conversation)
      if (token) deps.onTcTokens([token])
      yield* conversationParts(conversation, chat, options.batchSize)
    } else if (field.field === PUSH_NAMES) {
      const name = pushNameOf(decode(() => proto.Pushname.decode(field.bytes)))
      if (name) names.push(name)
      if (names.length >= options.batchSize) {
        yield { kind: 'push-names', names }
        names = []
      }
    } else {
      const pair = mappingOf(decode(() => proto.PhoneNumberToLIDMapping.decode(field.bytes)))
      if (pair) pairs.push(pair)
    }
    if (pairs.length >= options.batchSize) {
      deps.onMappings(pairs)
      pairs = []
    }
  }
  if (names.length > 0) yield { kind: 'push-names', names }
  if (pairs.length > 0) deps.onMappings(pairs)
}

function tcTokenOf(conversation: proto.IConversation): HistoryTcToken | undefined {
  const timestamp = Number(conversation.tcTokenTimestamp ?? 0)
  if (!conversation.id || !conversation.tcToken?.length || !(timestamp > 0)) return undefined
  const sender = Number(conversation.tcTokenSenderTimestamp ?? 0)
  return {
    jid: conversation.id,
    token: conversation.tcToken,
    timestamp,
    ...(sender > 0 ? { senderTimestamp: sender } : {}),
  }
}

function decode<T>(read: () => T): T {
  try {
    return read()
  } catch (error) {
    throw new EngineError('corrupt', `a history entry does not decode: ${(error as Error).message}`)
  }
}
