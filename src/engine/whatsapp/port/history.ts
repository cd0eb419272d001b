/*
 * The history part of the engine port: the history-sync notifications the account's phone sends
 * a newly linked device, and what reading one gives, part by part, so that no chunk is ever held
 * in memory whole.
 */
import type { InboundMessage, OwnMessage } from './messages'

/** History-sync chunk types, as the API names them (HistorySync.HistorySyncType). */
export type HistoryChunkType = 'initial_bootstrap' | 'recent' | 'full' | 'push_name' | 'on_demand'

/** A history-sync notification: where the chunk is and how to open it, not the chunk itself. */
export interface HistoryChunkNotice {
  /** The notification message's id (WhatsApp re-sends an unacknowledged one under the same id). */
  id: string
  syncType: HistoryChunkType
  chunkOrder: number
  /** WhatsApp's percentage of the whole sync reached with this chunk. */
  progress: number
  /** proto.Message.HistorySyncNotification encoded: opaque outside the engine. */
  notification: Uint8Array
}

/** What the phone says about a chat besides its messages. */
export interface HistoryChat {
  /** The chat as WhatsApp addressed it: `<pn>@s.whatsapp.net`, `<lid>@lid` or `<id>@g.us`. */
  chatJid: string
  /** 1:1: digits, each where known. */
  phone?: string
  lid?: string
  /** The saved contact name, or a group's subject. */
  name?: string
  unreadCount: number
  archived: boolean
  pinned: boolean
  mutedUntil?: Date
}

/** Delivery state of an own message as history gives it. */
export type HistoryOwnStatus = 'sent' | 'delivered' | 'read' | 'played' | 'failed'

export type HistoryMessage =
  | { direction: 'inbound'; message: InboundMessage }
  | { direction: 'outbound'; message: OwnMessage; status: HistoryOwnStatus }

/**
 * One part of a chunk, in the order the chunk holds them. A chat comes with up to a batch of its
 * messages; a chat with more comes again with the next batch (`messages` only).
 */
export type HistoryPart =
  | { kind: 'chat'; chat: HistoryChat; messages: HistoryMessage[] }
  | { kind: 'push-names'; names: { phone?: string; lid?: string; pushName: string }[] }

export interface HistoryReadOptions {
  /** The chunk's file (compressed) may be no larger; EngineError too_large. */
  maxFileBytes: number
  /** Inflating past this many bytes stops the read: EngineError too_large (a decompression bomb). */
  maxInflatedBytes: number
  /** Messages per `chat` part at most. */
  batchSize: number
  idleTimeoutMs: number
  signal?: AbortSignal
}
